// MCP behaviour measured against Claude Code 2.1.328 with the reference runner: how results reach
// hooks and the model, which rule forms cover which tools, and how modes treat MCP tools.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookEngine, type HookInput } from '../../src/index.js';
import path from 'node:path';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
const RAW_SERVER = fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url));
const servers = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { command: process.execPath, args: [SERVER] }]));

describe('MCP results as Claude Code passes them on', () => {
  it('structuredContent, resources, links and empty results: tool_response and the model see the same forms', async () => {
    const hooks = new HookEngine();
    const responses: unknown[] = [];
    const batches: unknown[] = [];
    hooks.on(
      'PostToolUse',
      (input) => void responses.push((input as HookInput<'PostToolUse'>).tool_response),
    );
    hooks.on(
      'PostToolBatch',
      (input) =>
        void batches.push(
          (input as { tool_calls: { tool_response: unknown }[] }).tool_calls[0]!.tool_response,
        ),
    );
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__structured', {})],
        [toolUse('t2', 'mcp__test__resources', {})],
        [toolUse('t3', 'mcp__test__empty', {})],
        [text('done')],
      ],
      { hooks, mcpServers: servers('test'), permissions: { rules: { allow: ['mcp__test'] } } },
    );
    const [structured, resources, empty] = toolResults(result.messages);
    // structuredContent wins over the text content, as JSON text.
    expect(responses[0]).toBe('{"n":4}');
    expect(structured!.content).toBe('{"n":4}');
    const saved = /saved to (\S+\.bin)$/m.exec(resources!.content)?.[1];
    expect(saved).toMatch(/\/tool-results\/mcp-test-blob-\d+-[0-9a-f]+\.bin$/);
    expect([...fs.readFileSync(saved!)]).toEqual([0, 1, 2]);
    expect(responses[1]).toEqual([
      { type: 'text', text: '[Resource from test at file:///r.txt] RESOURCE-TEXT' },
      {
        type: 'text',
        text: `[Resource from test at file:///b.bin] Binary content (application/octet-stream, 3 bytes) saved to ${saved}`,
      },
      { type: 'text', text: '[Resource link: l.txt] file:///l.txt' },
      { type: 'text', text: '[Resource link: d.txt] file:///d.txt (a described file)' },
    ]);
    // An empty result is [] for PostToolUse, and Claude Code's no-output line for the model and PostToolBatch.
    expect(responses[2]).toEqual([]);
    expect(empty!.content).toBe('(mcp__test__empty completed with no output)');
    expect(batches[2]).toBe('(mcp__test__empty completed with no output)');
  });

  it('an output with more than 50 000 characters of text is saved to tool-results/<id>.json and the model gets a preview; PostToolUse still sees it whole', async () => {
    const hooks = new HookEngine();
    const responses: unknown[] = [];
    hooks.on(
      'PostToolUse',
      (input) => void responses.push((input as HookInput<'PostToolUse'>).tool_response),
    );
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__test__big', { n: 50_000 })],
        [toolUse('t2', 'mcp__test__big', { n: 50_001 })],
        [text('done')],
      ],
      {
        hooks,
        mcpServers: servers('test'),
        permissions: { rules: { allow: ['mcp__test'] } },
      },
    );
    const [fits, over] = toolResults(result.messages);
    expect(fits!.content).toBe('x'.repeat(50_000));
    const saved =
      /^<persisted-output>\nOutput too large \(48\.9KB\)\. Full output saved to: (\S+\/tool-results\/t2\.json)\n\nPreview \(first 2KB\):\n\[/.exec(
        over!.content,
      )?.[1];
    expect(saved).toBeDefined();
    expect(JSON.parse(fs.readFileSync(saved!, 'utf8'))).toEqual([{ type: 'text', text: 'x'.repeat(50_001) }]);
    expect(over!.content.length).toBeLessThan(3000);
    expect(responses[1]).toEqual([{ type: 'text', text: 'x'.repeat(50_001) }]);
  });

  it('a result that is not a tool result is a failure in Claude Code words', async () => {
    const hooks = new HookEngine();
    const errors: string[] = [];
    hooks.on('PostToolUseFailure', (input) => void errors.push((input as { error: string }).error));
    const { result } = await scriptedRun([[toolUse('t1', 'mcp__test__garbage', {})], [text('done')]], {
      hooks,
      mcpServers: { test: { command: process.execPath, args: [RAW_SERVER] } },
      permissions: { rules: { allow: ['mcp__test'] } },
    });
    expect(toolResults(result.messages)[0]!.isError).toBe(true);
    expect(errors[0]).toMatch(
      /^MCP server "test" returned a malformed result that failed schema validation: Invalid result for tools\/call: /,
    );
  });
});

describe('MCP permission rules and modes as Claude Code reads them', () => {
  it('a * in the tool part is a wildcard; mcp__* and regex-looking rules match nothing and are no error', async () => {
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__a__echo', { text: 'a' })],
        [toolUse('t2', 'mcp__b__echo', { text: 'b' })],
        [toolUse('t3', 'mcp__b__fail', {})],
        [text('done')],
      ],
      {
        mcpServers: servers('a', 'b'),
        permissions: { rules: { allow: ['mcp__a__ech*', 'mcp__*', 'mcp__b__.*'], deny: [] } },
      },
    );
    const [a, b, fail] = toolResults(result.messages);
    expect(a).toMatchObject({ content: 'ECHO:a', isError: false });
    expect(b!.content).toContain("haven't granted it yet");
    expect(fail!.content).toContain("haven't granted it yet");
  });

  it('a deny rule with a wildcard leaves the tools it covers out; PermissionRequest carries mcp_server and an addRules suggestion', async () => {
    const hooks = new HookEngine();
    const requests: Record<string, unknown>[] = [];
    hooks.on('PermissionRequest', (input) => void requests.push(input as never));
    const { result, model } = await scriptedRun(
      [[toolUse('t1', 'mcp__a__echo', { text: 'a' })], [toolUse('t2', 'mcp__a__empty', {})], [text('done')]],
      {
        hooks,
        mcpServers: servers('a'),
        permissions: { rules: { deny: ['mcp__a__ec*'] } },
      },
    );
    expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('mcp__a__echo');
    expect(toolResults(result.messages)[0]!.content).toBe(
      '<tool_use_error>Error: No such tool available: mcp__a__echo</tool_use_error>',
    );
    expect(requests).toEqual([
      expect.objectContaining({
        tool_name: 'mcp__a__empty',
        permission_suggestions: [
          {
            type: 'addRules',
            rules: [{ toolName: 'mcp__a__empty' }],
            behavior: 'allow',
            destination: 'localSettings',
          },
        ],
        mcp_server: { name: 'a', source: 'dynamic' },
      }),
    ]);
  });

  it('dontAsk refuses an ask rule without PermissionRequest; plan mode refuses an allowed MCP tool in its words', async () => {
    const hooks = new HookEngine();
    let requests = 0;
    hooks.on('PermissionRequest', () => void requests++);
    const dontAsk = await scriptedRun([[toolUse('t1', 'mcp__a__fail', {})], [text('done')]], {
      hooks,
      mcpServers: servers('a'),
      permissions: { mode: 'dontAsk', rules: { ask: ['mcp__a__fail'] } },
    });
    expect(toolResults(dontAsk.result.messages)[0]!.content).toMatch(
      /^Permission to use mcp__a__fail has been denied because hookloop is running in don't ask mode/,
    );
    expect(requests).toBe(0);
    const plan = await scriptedRun([[toolUse('t1', 'mcp__a__echo', { text: 'x' })], [text('done')]], {
      mcpServers: servers('a'),
      permissions: { mode: 'plan', rules: { allow: ['mcp__a'] } },
    });
    expect(toolResults(plan.result.messages)[0]!.content).toBe(
      'Cannot call mcp__a__echo while in plan mode.',
    );
  });

  it('PermissionDenied of an MCP tool (auto mode) carries mcp_server', async () => {
    const hooks = new HookEngine();
    const denied: Record<string, unknown>[] = [];
    hooks.on('PermissionDenied', (input) => void denied.push(input as never));
    await scriptedRun([[toolUse('t1', 'mcp__a__empty', {})], [text('done')]], {
      hooks,
      mcpServers: servers('a'),
      permissions: { mode: 'dontAsk', autoMode: true },
    });
    expect(denied).toEqual([
      expect.objectContaining({ tool_name: 'mcp__a__empty', mcp_server: { name: 'a', source: 'dynamic' } }),
    ]);
  });
});

describe('roots', () => {
  it('a server that asks roots/list gets the project directory, as Claude Code answers', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'raw.log');
    await scriptedRun([[toolUse('t1', 'mcp__raw__echo', { text: 'a' })], [text('done')]], {
      projectDir: dir,
      mcpServers: {
        raw: { command: process.execPath, args: [RAW_SERVER], env: { SRV_ROOTS: '1', SRV_LOG: log } },
      },
      permissions: { rules: { allow: ['mcp__raw'] } },
    });
    expect(fs.readFileSync(log, 'utf8')).toContain(`roots {"roots":[{"uri":"file://${path.resolve(dir)}"}]}`);
  });
});
