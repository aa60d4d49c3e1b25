import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

const PROBE = fileURLToPath(new URL('./fixtures/probe-server.mjs', import.meta.url));

/** The tools/call requests the probe received for its `approve` tool. */
function approvals(log: string): unknown[] {
  return fs
    .readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { method?: string; params?: { name?: string; arguments?: unknown } })
    .filter((message) => message.method === 'tools/call' && message.params?.name === 'approve')
    .map((message) => message.params!.arguments);
}

describe('--permission-prompt-tool (an MCP tool approves headless)', () => {
  it('asks the tool with {tool_name, input, tool_use_id}: its allow runs the call, its deny message reaches the model', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'probe.log');
    const { result } = await scriptedRun(
      [
        [
          toolUse('t1', 'mcp__probe__echo', { text: 'hi' }),
          toolUse('t2', 'mcp__probe__echo', { text: 'deny-me' }),
        ],
        [text('done')],
      ],
      {
        projectDir: dir,
        mcpServers: { probe: { command: process.execPath, args: [PROBE], env: { PROBE_LOG: log } } },
        permissionPromptTool: 'mcp__probe__approve',
      },
    );
    const [allowed, denied] = toolResults(result.messages);
    expect(allowed).toMatchObject({ content: 'ECHO:hi', isError: false });
    expect(denied).toMatchObject({ isError: true });
    expect(denied!.content).toContain('PROMPT-TOOL-SAYS-NO');
    expect(approvals(log)).toEqual([
      { tool_name: 'mcp__probe__echo', input: { text: 'hi' }, tool_use_id: 't1' },
      { tool_name: 'mcp__probe__echo', input: { text: 'deny-me' }, tool_use_id: 't2' },
    ]);
  });

  it('cannot pass a deny rule (the tool is not even asked), and an allow with a changed input is refused', async () => {
    const dir = tempProject();
    const log = path.join(dir, 'probe.log');
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'mcp__probe__second', {}), toolUse('t2', 'mcp__probe__echo', { text: 'rewrite' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        mcpServers: { probe: { command: process.execPath, args: [PROBE], env: { PROBE_LOG: log } } },
        // A specifier keeps the tool offered (a whole-tool deny would hide it) and still denies it.
        permissions: { rules: { deny: ['mcp__probe__second(*)'] } },
        permissionPromptTool: 'mcp__probe__approve',
      },
    );
    const [refused, rewritten] = toolResults(result.messages);
    expect(refused).toMatchObject({ isError: true });
    expect(refused!.content).not.toContain('SECOND');
    expect(rewritten).toMatchObject({ isError: true });
    expect(rewritten!.content).toContain('changed input');
    expect(approvals(log)).toEqual([
      { tool_name: 'mcp__probe__echo', input: { text: 'rewrite' }, tool_use_id: 't2' },
    ]);
  });

  it('is a CLI flag that takes only an MCP tool name', () => {
    expect(parseArgs(['-p', 'go', '--permission-prompt-tool', 'mcp__probe__approve'], '0.0.0')).toMatchObject(
      { command: 'run', permissionPromptTool: 'mcp__probe__approve' },
    );
    expect(() => parseArgs(['-p', 'go', '--permission-prompt-tool', 'Bash'], '0.0.0')).toThrow(
      '--permission-prompt-tool: expected an MCP tool name (mcp__<server>__<tool>), got "Bash"',
    );
  });
});
