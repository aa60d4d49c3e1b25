import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookEngine, type HookInput } from '../../src/index.js';
import { expandMcpPrompt, mcpPromptCommands } from '../../src/mcp/mcp-prompts.js';
import { McpClient } from '../../src/mcp/mcp-client.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

const PROBE = fileURLToPath(new URL('./fixtures/probe-server.mjs', import.meta.url));
const probe = (env: Record<string, string> = {}) => ({
  probe: { command: process.execPath, args: [PROBE], env },
});

describe('MCP client features (a probe server over stdio)', () => {
  it('offers every page of tools/list, hides a task-only tool, passes the server instructions to the model, and starts the server with CLAUDE_PROJECT_DIR', async () => {
    const dir = tempProject();
    const envFile = path.join(dir, 'server-env.json');
    const { result, model } = await scriptedRun([[toolUse('t1', 'mcp__probe__second', {})], [text('done')]], {
      projectDir: dir,
      mcpServers: probe({ PROBE_ENV: envFile }),
      permissions: { rules: { allow: ['mcp__probe'] } },
    });
    const names = model.requests[0]!.tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__probe__echo',
        'mcp__probe__bad',
        'mcp__probe__second',
        'mcp__probe__slow',
        'ListMcpResourcesTool',
        'ReadMcpResourceTool',
      ]),
    );
    expect(names).not.toContain('mcp__probe__taskonly');
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'SECOND', isError: false });
    // Claude Code's section, in the system text that goes with the first prompt.
    const system = model.requests[0]!.messages.filter((message) => message.role === 'system').map(
      (message) => message.content as string,
    );
    expect(system.join('\n')).toContain(
      '# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## probe\nPROBE-INSTRUCTIONS: call echo first.',
    );
    expect(JSON.parse(fs.readFileSync(envFile, 'utf8'))).toMatchObject({
      CLAUDE_PROJECT_DIR: path.resolve(dir),
    });
  });

  it('a -32602 protocol error reaches PostToolUseFailure and the model in the server words, as Claude Code reports it', async () => {
    const hooks = new HookEngine();
    const failures: HookInput<'PostToolUseFailure'>[] = [];
    hooks.on('PostToolUseFailure', (input) => void failures.push(input));
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__probe__bad', {})], [text('done')]], {
      hooks,
      mcpServers: probe(),
      permissions: { rules: { allow: ['mcp__probe'] } },
    });
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true });
    expect(toolResults(result.messages)[0]!.content).toContain('Invalid params: probe says no');
    expect(toolResults(result.messages)[0]!.content).not.toContain('MCP error -32602');
    expect(failures.map((failure) => failure.error)).toEqual(['Invalid params: probe says no']);
  });

  it('lists (every page) and reads resources through ListMcpResourcesTool and ReadMcpResourceTool, in Claude Code result shapes; a deny rule still stops them', async () => {
    const { result } = await scriptedRun(
      [
        [
          toolUse('t1', 'ListMcpResourcesTool', {}),
          toolUse('t2', 'ReadMcpResourceTool', { server: 'probe', uri: 'probe://a' }),
          toolUse('t3', 'ReadMcpResourceTool', { server: 'nope', uri: 'x' }),
        ],
        [text('done')],
      ],
      { mcpServers: probe() },
    );
    const [listed, read, unknown] = toolResults(result.messages);
    expect(JSON.parse(listed!.content)).toEqual([
      { uri: 'probe://a', name: 'A', mimeType: 'text/plain', server: 'probe' },
      { uri: 'probe://b', name: 'B', server: 'probe' },
    ]);
    expect(JSON.parse(read!.content)).toEqual({
      contents: [{ uri: 'probe://a', mimeType: 'text/plain', text: 'CONTENT-OF-probe://a' }],
    });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown!.content).toContain('Server "nope" not found');
    const denied = await scriptedRun(
      [[toolUse('t1', 'ReadMcpResourceTool', { server: 'probe', uri: 'probe://a' })], [text('done')]],
      { mcpServers: probe(), permissions: { rules: { deny: ['ReadMcpResourceTool'] } } },
    );
    expect(toolResults(denied.result.messages)[0]).toMatchObject({ isError: true });
    expect(toolResults(denied.result.messages)[0]!.content).not.toContain('CONTENT-OF');
  });

  it('sends a progressToken with each call and reports progress and log messages as run events', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'probe.log');
    const { result, events } = await scriptedRun([[toolUse('t1', 'mcp__probe__slow', {})], [text('done')]], {
      projectDir: dir,
      mcpServers: probe({ PROBE_LOG: log }),
      permissions: { rules: { allow: ['mcp__probe'] } },
    });
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'SLOW token=sent' });
    const received = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { method?: string; params?: unknown });
    expect(received.find((message) => message.method === 'logging/setLevel')?.params).toEqual({
      level: 'info',
    });
    const notices = events.filter((event) => event.type === 'mcp_notice');
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          server: 'probe',
          kind: 'log',
          level: 'info',
          text: 'probe: working on it',
        }),
        expect.objectContaining({
          server: 'probe',
          kind: 'progress',
          text: 'slow: 1/2 half way',
          toolUseId: 't1',
        }),
      ]),
    );
  });

  it('offers prompts as /mcp__server__prompt commands and expands them as Claude Code does', async () => {
    const client = new McpClient(
      {
        name: 'probe',
        config: { command: process.execPath, args: [PROBE] },
        source: 'dynamic',
        file: 'test',
      },
      { projectDir: tempProject() },
    );
    await client.connect();
    try {
      const commands = await mcpPromptCommands([client]);
      expect(commands).toEqual([
        {
          name: 'mcp__probe__greet',
          server: 'probe',
          prompt: 'greet',
          description: 'Greets someone',
          arguments: [
            { name: 'who', required: true },
            { name: 'how', required: false },
          ],
        },
      ]);
      const expansion = await expandMcpPrompt([client], commands[0]!, 'bob');
      expect(expansion.commandText).toBe(
        '<command-message>mcp__probe__greet</command-message>\n<command-name>/mcp__probe__greet</command-name>\n<command-args>bob</command-args>\n',
      );
      expect(expansion.blocks).toEqual(['PROMPT-BODY {"who":"bob"}']);
    } finally {
      await client.close();
    }
  });
});
