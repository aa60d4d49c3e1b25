import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpConfig, McpClient, mcpToolName, normalizeMcpName, startSession } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** Starts the test server over streamable HTTP on 127.0.0.1 and resolves with its URL. */
function httpServer(mode: '--http' | '--sse' = '--http'): Promise<string> {
  const child = spawn(process.execPath, [SERVER, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}/${mode === '--sse' ? 'sse' : 'mcp'}`);
    });
    child.on('exit', () => reject(new Error('the HTTP test server exited')));
  });
}

/** True while `pid` runs; a zombie (dead, waiting for a parent that may never reap it in a container) counts as gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('MCP transports', () => {
  it('streamable HTTP with headers from ${VAR}', async () => {
    const url = await httpServer();
    const dir = tempProject({
      '.mcp.json': JSON.stringify({
        mcpServers: { web: { type: 'http', url, headers: { 'x-test-token': 'Bearer ${TEST_TOKEN}' } } },
      }),
    });
    const config = loadMcpConfig({ projectDir: dir, homeDir: dir, env: { TEST_TOKEN: 'sekrit' } });
    expect(config.servers.map((server) => [server.name, server.source])).toEqual([['web', 'project']]);
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__web__header', {})],
        [toolUse('t2', 'mcp__web__echo', { text: 'over http' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        mcpServers: config.servers,
        permissions: { rules: { allow: ['mcp__web'] } },
      },
    );
    expect(toolResults(result.messages).map((paired) => paired.content)).toEqual([
      'TOKEN:Bearer sekrit',
      'ECHO:over http',
    ]);
  });

  it('legacy SSE, with headers on the event stream', async () => {
    const url = await httpServer('--sse');
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__old__echo', { text: 'over sse' })], [text('done')]],
      {
        mcpServers: { old: { type: 'sse', url, headers: { 'x-test-token': 'sse-token' } } },
        permissions: { rules: { allow: ['mcp__old'] } },
      },
    );
    expect(toolResults(result.messages).map((paired) => paired.content)).toEqual(['ECHO:over sse']);
  });

  it('an HTTP server that is not there: a warning, the tool is not offered, the run goes on', async () => {
    const { result, events, model } = await scriptedRun([[text('done')]], {
      mcpServers: { gone: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    expect(result.terminalReason).toBe('completed');
    expect(model.requests[0]!.tools.filter((tool) => tool.name.startsWith('mcp__'))).toEqual([]);
    expect(events.some((event) => event.type === 'warning' && event.text.includes('MCP server "gone"'))).toBe(
      true,
    );
  });

  it('ends a stdio server and everything it started when the session ends (no orphans)', async () => {
    const dir = tempProject();
    const session = await startSession({
      model: new ScriptedModel([[toolUse('t1', 'mcp__test__pid', {})], [text('done')]]),
      projectDir: dir,
      mcpServers: { test: { command: process.execPath, args: [SERVER] } },
      permissions: { rules: { allow: ['mcp__test'] } },
    });
    const result = await session.send('go');
    const pids = JSON.parse(toolResults(result.messages)[0]!.content) as { pid: number; child: number };
    expect(alive(pids.pid)).toBe(true);
    expect(alive(pids.child)).toBe(true);
    await session.end();
    expect(alive(pids.pid)).toBe(false);
    // The grandchild was killed with the group; give the kernel a moment to reap it.
    for (let attempt = 0; attempt < 50 && alive(pids.child); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(pids.child)).toBe(false);
  });

  it('McpClient works on its own for embedders', async () => {
    const client = new McpClient(
      { name: 'own', config: { command: process.execPath, args: [SERVER] }, source: 'dynamic', file: 'test' },
      { projectDir: tempProject() },
    );
    await client.connect();
    try {
      expect(client.state).toBe('connected');
      expect(client.tools.map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool('image', {});
      expect(result.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    } finally {
      await client.close();
    }
  });

  it('plugin .mcp.json servers get ${CLAUDE_PLUGIN_ROOT} and the name plugin:<plugin>:<server>', () => {
    const dir = tempProject({
      'plug/.mcp.json': JSON.stringify({
        mcpServers: { tools: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.js'] } },
      }),
    });
    const root = path.join(dir, 'plug');
    const config = loadMcpConfig({
      projectDir: dir,
      homeDir: dir,
      env: {},
      plugins: [{ name: 'my-plugin', root }],
    });
    expect(config.servers).toEqual([
      {
        name: 'plugin:my-plugin:tools',
        config: { command: 'node', args: [`${root}/server.js`] },
        source: 'plugin',
        file: path.join(root, '.mcp.json'),
      },
    ]);
    expect(mcpToolName('plugin:my-plugin:tools', 'do it')).toBe('mcp__plugin_my-plugin_tools__do_it');
    expect(normalizeMcpName('a.b c/d')).toBe('a_b_c_d');
  });

  it('headless, unapproved .mcp.json servers connect (as Claude Code -p); interactive, they wait for a person', () => {
    const dir = tempProject({ '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: 'node' } } }) });
    expect(
      loadMcpConfig({ projectDir: dir, homeDir: dir, env: {} }).servers.map((server) => server.name),
    ).toEqual(['repo']);
    const interactive = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true });
    expect(interactive.servers).toEqual([]);
    expect(interactive.skipped).toMatchObject([
      { name: 'repo', state: 'pending', config: { command: 'node' } },
    ]);
    fs.mkdirSync(path.join(dir, '.claude'));
    fs.writeFileSync(
      path.join(dir, '.claude', 'settings.local.json'),
      JSON.stringify({ enabledMcpjsonServers: ['repo'] }),
    );
    expect(
      loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true }).servers.map(
        (server) => server.name,
      ),
    ).toEqual(['repo']);
  });

  it("the checked-in .claude/settings.json cannot approve the repository's own servers (it can disable them)", () => {
    const dir = tempProject({
      '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: 'node' }, other: { command: 'node' } } }),
      '.claude/settings.json': JSON.stringify({
        enableAllProjectMcpServers: true,
        enabledMcpjsonServers: ['repo'],
        disabledMcpjsonServers: ['other'],
      }),
    });
    const interactive = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true });
    expect(interactive.servers).toEqual([]);
    expect(interactive.skipped.map((skipped) => [skipped.name, skipped.state])).toEqual([
      ['repo', 'pending'],
      ['other', 'rejected'],
    ]);
  });

  it('later sources win by name: user < project < local < --mcp-config', () => {
    const dir = tempProject({
      '.mcp.json': JSON.stringify({ mcpServers: { same: { command: 'project' } } }),
      'home/.claude.json': JSON.stringify({
        mcpServers: { same: { command: 'user' }, onlyUser: { command: 'u' } },
      }),
    });
    const sources = { projectDir: dir, homeDir: path.join(dir, 'home'), env: {} };
    expect(
      loadMcpConfig(sources).servers.map((server) => [
        server.name,
        (server.config as { command: string }).command,
        server.source,
      ]),
    ).toEqual([
      ['same', 'project', 'project'],
      ['onlyUser', 'u', 'user'],
    ]);
    const flagged = loadMcpConfig({ ...sources, mcpConfigs: ['{"mcpServers":{"same":{"command":"flag"}}}'] });
    expect(flagged.servers.find((server) => server.name === 'same')).toMatchObject({
      source: 'dynamic',
      config: { command: 'flag' },
    });
  });

  it('an unset ${VAR} without default is kept as written, with a warning naming it', () => {
    const dir = tempProject({
      '.mcp.json': JSON.stringify({ mcpServers: { s: { type: 'http', url: 'https://x/${NOPE}' } } }),
    });
    const config = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {} });
    expect(config.servers[0]!.config).toMatchObject({ url: 'https://x/${NOPE}' });
    expect(config.warnings).toEqual([
      `${path.join(dir, '.mcp.json')}: mcpServers.s: environment variable NOPE not set (kept as written)`,
    ]);
  });
});
