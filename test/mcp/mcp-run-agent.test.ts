import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deny, HookEngine, type HookInput } from '../../src/index.js';
import {
  pairingViolations,
  scriptedRun,
  tempProject,
  text,
  toolResults,
  toolUse,
} from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
const stdioServer = (env: Record<string, string> = {}) => ({
  test: { command: process.execPath, args: [SERVER], env },
});

describe('runAgent({ mcpServers }) over stdio', () => {
  it('offers mcp__test__* tools with the server JSON Schema and runs them through the hooks', async () => {
    const hooks = new HookEngine();
    const seen: HookInput<'PreToolUse' | 'PostToolUse'>[] = [];
    hooks.on('PreToolUse', (input) => void seen.push(input));
    hooks.on('PostToolUse', (input) => void seen.push(input));
    const { result, model } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__echo', { text: 'hi' })], [text('done')]],
      {
        hooks,
        mcpServers: stdioServer(),
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    const spec = model.requests[0]!.tools.find((tool) => tool.name === 'mcp__test__echo');
    expect(spec?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'ECHO:hi', isError: false });
    expect(seen.map((input) => input.hook_event_name)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(seen[0]).toMatchObject({
      tool_name: 'mcp__test__echo',
      tool_input: { text: 'hi' },
      mcp_server: { name: 'test', source: 'dynamic' },
    });
    expect((seen[1] as HookInput<'PostToolUse'>).tool_response).toEqual([{ type: 'text', text: 'ECHO:hi' }]);
  });

  it('sends input that does not match the schema to the server, whose refusal reaches PostToolUseFailure, as Claude Code does', async () => {
    const hooks = new HookEngine();
    const failures: HookInput<'PostToolUseFailure'>[] = [];
    hooks.on('PostToolUseFailure', (input) => void failures.push(input));
    const log = path.join(tempProject(), 'calls.log');
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__test__echo', { text: 42 })], [text('done')]], {
      hooks,
      mcpServers: stdioServer({ CALL_LOG: log }),
      permissions: { rules: { allow: ['mcp__test__*'] } },
    });
    const paired = toolResults(result.messages)[0]!;
    expect(paired.isError).toBe(true);
    // The SDK's server refuses it (-32602 as an error result); the handler never ran.
    expect(paired.content).toContain('Input validation error');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error).toBe(paired.content);
    expect(fs.existsSync(log)).toBe(false);
  });

  it('routes isError to PostToolUseFailure with the error text', async () => {
    const hooks = new HookEngine();
    const failures: HookInput<'PostToolUseFailure'>[] = [];
    hooks.on('PostToolUseFailure', (input) => void failures.push(input));
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__test__fail', {})], [text('done')]], {
      hooks,
      mcpServers: stdioServer(),
      permissions: { rules: { allow: ['mcp__test__fail'] } },
    });
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'MCP-FAILURE', isError: true });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      error: 'MCP-FAILURE',
      mcp_server: { name: 'test', source: 'dynamic' },
    });
  });

  it('lets a PostToolUse updatedMCPToolOutput replace what the model sees', async () => {
    const hooks = new HookEngine();
    hooks.on(
      'PostToolUse',
      () =>
        ({
          hookSpecificOutput: {
            hookEventName: 'PostToolUse',
            updatedMCPToolOutput: [{ type: 'text', text: 'REPLACED' }],
          },
        }) as never,
    );
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__echo', { text: 'hi' })], [text('done')]],
      { hooks, mcpServers: stdioServer(), permissions: { rules: { allow: ['mcp__test'] } } },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'REPLACED', isError: false });
  });

  it('keeps deny rules over MCP tools: a tool a deny rule covers whole is not offered, never runs and fires no hook, as in Claude Code', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on('PreToolUse', (input) => {
      seen.push((input as { tool_name: string }).tool_name);
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } } as never;
    });
    const { result, model } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__danger', {}), toolUse('t2', 'mcp__test__echo', { text: 'ok' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        hooks,
        mcpServers: stdioServer({ CALL_LOG: log }),
        permissions: { rules: { allow: ['mcp__test'], deny: ['mcp__test__danger'] } },
      },
    );
    const [danger, echo] = toolResults(result.messages);
    expect(danger).toMatchObject({
      isError: true,
      content: '<tool_use_error>Error: No such tool available: mcp__test__danger</tool_use_error>',
    });
    expect(echo).toMatchObject({ content: 'ECHO:ok', isError: false });
    expect(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['echo']);
    expect(seen).toEqual(['mcp__test__echo']);
    const offered = model.requests[0]!.tools.map((tool) => tool.name);
    expect(offered).toContain('mcp__test__echo');
    expect(offered).not.toContain('mcp__test__danger');
  });

  it('asks for MCP tools no rule allows (headless: refused), as Claude Code does', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__echo', { text: 'x' })], [text('done')]],
      { projectDir: dir, mcpServers: stdioServer({ CALL_LOG: log }) },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true });
    expect(fs.existsSync(log)).toBe(false);
  });

  it('a PreToolUse updatedInput the server schema refuses is refused by the server; its handler never runs', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const hooks = new HookEngine();
    hooks.on(
      'PreToolUse',
      () =>
        ({
          hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { text: ['not', 'a string'] } },
        }) as never,
    );
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__echo', { text: 'x' })], [text('done')]],
      {
        projectDir: dir,
        hooks,
        mcpServers: stdioServer({ CALL_LOG: log }),
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true });
    expect(toolResults(result.messages)[0]!.content).toContain('Input validation error');
    expect(fs.existsSync(log)).toBe(false);
  });

  it('a legitimate PreToolUse updatedInput runs with the rewritten value', async () => {
    const hooks = new HookEngine();
    hooks.on(
      'PreToolUse',
      () =>
        ({
          hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { text: 'rewritten' } },
        }) as never,
    );
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__echo', { text: 'x' })], [text('done')]],
      { hooks, mcpServers: stdioServer(), permissions: { rules: { allow: ['mcp__test'] } } },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'ECHO:rewritten' });
  });

  it('pairs every call when the server crashes, warns, and restarts it once on the next call', async () => {
    const { result, events } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__crash', {}), toolUse('t2', 'mcp__test__echo', { text: 'after' })],
        [toolUse('t3', 'mcp__test__echo', { text: 'again' })],
        [text('done')],
      ],
      { mcpServers: stdioServer(), permissions: { rules: { allow: ['mcp__test'] } } },
    );
    expect(pairingViolations(result.messages)).toEqual([]);
    const results = toolResults(result.messages);
    expect(results[0]).toMatchObject({ isError: true });
    expect(results[0]!.content).toMatch(/closed|not connected/i);
    // The echo right after the crash either restarted the server or found it gone; the restart happens once.
    expect(results.slice(1).some((paired) => paired.content.startsWith('ECHO:'))).toBe(true);
    expect(
      events.some((event) => event.type === 'warning' && /MCP server "test" stopped/.test(event.text)),
    ).toBe(true);
  });

  it('a server that cannot start is a warning, its tools are not there; the other servers keep working', async () => {
    const { result, events } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__echo', { text: 'ok' }), toolUse('t2', 'mcp__broken__x', {})],
        [text('done')],
      ],
      {
        mcpServers: { ...stdioServer(), broken: { command: path.join(tempProject(), 'no-such-binary') } },
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ content: 'ECHO:ok' });
    expect(
      events.some(
        (event) => event.type === 'warning' && /MCP server "broken" .*failed to start/.test(event.text),
      ),
    ).toBe(true);
    // The model gets Claude Code's plain answer; the reason was the startup warning.
    expect(toolResults(result.messages)[1]).toMatchObject({
      isError: true,
      content: '<tool_use_error>Error: No such tool available: mcp__broken__x</tool_use_error>',
    });
  });

  it('picks up tools/list_changed between turns', async () => {
    const { result, model } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__add_tool', {})], [toolUse('t2', 'mcp__test__late', {})], [text('done')]],
      {
        mcpServers: stdioServer(),
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('mcp__test__late');
    expect(model.requests[1]!.tools.map((tool) => tool.name)).toContain('mcp__test__late');
    expect(toolResults(result.messages)[1]).toMatchObject({ content: 'LATE', isError: false });
  });

  it('a deny hook with matcher mcp__test__.* blocks the call before the server sees it', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'mcp__test__.*' }, (input) =>
      input.tool_name === 'mcp__test__image' ? deny('no images') : undefined,
    );
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__image', {}), toolUse('t2', 'mcp__test__echo', { text: 'y' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        hooks,
        mcpServers: stdioServer({ CALL_LOG: log }),
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    const [image, echo] = toolResults(result.messages);
    expect(image!.content).toContain('no images');
    expect(echo).toMatchObject({ content: 'ECHO:y' });
    expect(fs.readFileSync(log, 'utf8').trim()).toBe('echo');
  });

  it('images reach the model as image blocks followed by the file they were saved to, as Claude Code sends them; the text form describes them', async () => {
    const { result, model } = await scriptedRun([[toolUse('t1', 'mcp__test__image', {})], [text('done')]], {
      mcpServers: stdioServer(),
      permissions: { rules: { allow: ['mcp__test'] } },
    });
    const paired = toolResults(result.messages)[0]!;
    const saved = /\[Image: source: (\S+\/tool-results\/mcp-test-blob-\d+-[0-9a-f]+\.png)\]/.exec(
      paired.content,
    )?.[1];
    expect(saved).toBeDefined();
    expect(fs.readFileSync(saved!).subarray(1, 4).toString()).toBe('PNG');
    expect(paired.content).toBe(`[image: image/png]\n[Image: source: ${saved}]\na 1x1 pixel`);
    expect(paired.blocks).toEqual([
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) },
      },
      { type: 'text', text: `[Image: source: ${saved}]` },
      { type: 'text', text: 'a 1x1 pixel' },
    ]);
    const sent = model.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(sent).toMatchObject({ blocks: paired.blocks });
  });
});

describe('elicitation', () => {
  it('an Elicitation hook answers accept + content; unanswered, the request is cancelled and ElicitationResult and Notification fire', async () => {
    const hooks = new HookEngine();
    const events: string[] = [];
    let asked = 0;
    hooks.on('Elicitation', { matcher: 'test' }, (input) => {
      events.push(`Elicitation:${input.mcp_server_name}:${input.message}`);
      return ++asked === 1
        ? ({
            hookSpecificOutput: {
              hookEventName: 'Elicitation',
              action: 'accept',
              content: { color: 'blue' },
            },
          } as never)
        : undefined;
    });
    hooks.on('ElicitationResult', (input) => void events.push(`ElicitationResult:${input.action}`));
    hooks.on(
      'Notification',
      (input) => void events.push(`Notification:${input.notification_type}:${input.message}`),
    );
    const { result } = await scriptedRun(
      [[toolUse('t1', 'mcp__test__ask', {})], [toolUse('t2', 'mcp__test__ask', {})], [text('done')]],
      {
        hooks,
        mcpServers: stdioServer(),
        permissions: { rules: { allow: ['mcp__test__ask'] } },
      },
    );
    expect(toolResults(result.messages).map((paired) => paired.content)).toEqual([
      'ELICITATION-RESULT:{"action":"accept","content":{"color":"blue"}}',
      'ELICITATION-RESULT:{"action":"cancel"}',
    ]);
    expect(events).toEqual([
      'Elicitation:test:Pick a color',
      'Elicitation:test:Pick a color',
      'ElicitationResult:cancel',
      'Notification:elicitation_response:Elicitation response for server "test": cancel',
    ]);
  });

  it('unanswered by hooks, RunOptions.elicit asks a person; ElicitationResult sees the answer', async () => {
    const hooks = new HookEngine();
    const results: unknown[] = [];
    hooks.on(
      'ElicitationResult',
      (input) => void results.push({ action: input.action, content: input.content }),
    );
    const asked: string[] = [];
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__test__ask', {})], [text('done')]], {
      hooks,
      mcpServers: stdioServer(),
      permissions: { rules: { allow: ['mcp__test__ask'] } },
      elicit: async (request) => {
        asked.push(`${request.serverName}: ${request.message}`);
        return { action: 'accept', content: { color: 'green' } };
      },
    });
    expect(asked).toEqual(['test: Pick a color']);
    expect(results).toEqual([{ action: 'accept', content: { color: 'green' } }]);
    expect(toolResults(result.messages)[0]!.content).toBe(
      'ELICITATION-RESULT:{"action":"accept","content":{"color":"green"}}',
    );
  });
});

describe('a stdio server that dies', () => {
  it('is started again on the next call each time it dies, as Claude Code does; the call in flight reads "Connection closed"', async () => {
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__crash', {})],
        [toolUse('t2', 'mcp__test__echo', { text: 'one' })],
        [toolUse('t3', 'mcp__test__crash', {})],
        [toolUse('t4', 'mcp__test__echo', { text: 'two' })],
        [text('done')],
      ],
      { mcpServers: stdioServer(), permissions: { rules: { allow: ['mcp__test'] } } },
    );
    expect(toolResults(result.messages).map((paired) => [paired.content, paired.isError])).toEqual([
      ['Connection closed', true],
      ['ECHO:one', false],
      ['Connection closed', true],
      ['ECHO:two', false],
    ]);
  });

  it('a call past $MCP_TOOL_TIMEOUT fails in Claude Code words and the session goes on', async () => {
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__hang', {})],
        [toolUse('t2', 'mcp__test__echo', { text: 'next' })],
        [text('done')],
      ],
      {
        mcpServers: stdioServer(),
        env: { MCP_TOOL_TIMEOUT: '500' },
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    expect(toolResults(result.messages).map((paired) => [paired.content, paired.isError])).toEqual([
      ['MCP server "test" tool "hang" timed out after 0.5s', true],
      ['ECHO:next', false],
    ]);
  });
});
