// Details of MCP tool calls a user notices: an image beside structuredContent, the name a saved
// archive gets, the warning Node prints when a run-wide signal collects listeners, and the HTTP
// session's DELETE at exit. The CLI parts need `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
const RAW_SERVER = fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url));
const raw = { test: { command: process.execPath, args: [RAW_SERVER] } };
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

describe('MCP call details', () => {
  it('an image result that also carries structuredContent reaches the model as an image block', async () => {
    const { result, model } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__imagestructured', {})], [text('done')]],
      { mcpServers: raw, permissions: { rules: { allow: ['mcp__test'] } } },
    );
    const paired = toolResults(result.messages)[0]!;
    expect(paired.blocks?.[0]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) },
    });
    expect(paired.content).not.toContain('iVBOR');
    const sent = model.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(sent).toMatchObject({ blocks: paired.blocks });
  });

  it('an application/gzip blob is saved with the extension .bin, as Claude Code names it', async () => {
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__test__gzipblob', {})], [text('done')]], {
      mcpServers: raw,
      permissions: { rules: { allow: ['mcp__test'] } },
    });
    const content = toolResults(result.messages)[0]!.content;
    const saved = /saved to (\S+)$/m.exec(content)?.[1];
    expect(saved).toMatch(/\/tool-results\/mcp-test-blob-\d+-[0-9a-f]+\.bin$/);
    expect(fs.readFileSync(saved!).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('twelve MCP calls in one run leave no abort listeners behind (Node prints no MaxListenersExceededWarning)', () => {
    const dir = tempProject();
    writeJson(dir, 'mcp.json', { mcpServers: { test: { command: process.execPath, args: [SERVER] } } });
    const calls = Array.from({ length: 12 }, (_, index) => [
      { type: 'tool_use', id: `toolu_${index}`, name: 'mcp__test__echo', input: { text: `n${index}` } },
    ]);
    writeJson(dir, 't.json', [...calls, [{ type: 'text', text: 'done' }]]);
    const run = runCli(
      [
        '-p',
        'go',
        '--strict-mcp-config',
        '--mcp-config',
        'mcp.json',
        '--model-script',
        't.json',
        '--allowedTools',
        'mcp__test',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('done');
    expect(run.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  });

  it('ends the HTTP session with DELETE when the session ends', { timeout: 60_000 }, async () => {
    const dir = tempProject();
    const log = path.join(dir, 'http.log');
    const child = spawn(process.execPath, [SERVER, '--http-session'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, HTTP_LOG: log },
    });
    started.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /PORT (\d+)/.exec(out);
        if (match) resolve(`http://127.0.0.1:${match[1]}/mcp`);
      });
      child.on('exit', () => reject(new Error('the HTTP test server exited')));
    });
    writeJson(dir, 'mcp.json', { mcpServers: { web: { type: 'http', url } } });
    writeJson(dir, 't.json', [
      [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__web__echo', input: { text: 'hi' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--strict-mcp-config',
        '--mcp-config',
        'mcp.json',
        '--model-script',
        't.json',
        '--allowedTools',
        'mcp__web',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    const session = lines.find((line) => line.startsWith('POST ') && !line.endsWith(' -'))!.split(' ')[1];
    expect(session).toBeDefined();
    expect(lines.at(-1)).toBe(`DELETE ${session}`);
  });
});
