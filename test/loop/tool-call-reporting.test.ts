import { describe, expect, it } from 'vitest';
import { builtinTools, HookEngine } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

// What the loop reports about a call besides its result: `permission_denials` of the JSON result and
// the `tool_calls` of PostToolBatch, in the shapes Claude Code 2.1.328 uses (conformance traces).

describe('permission_denials', () => {
  it('names the refused input as PreToolUse saw it: file paths absolute (mode-plan, mode-accept-edits)', async () => {
    const projectDir = tempProject();
    const { result } = await scriptedRun(
      [[toolUse('toolu_01', 'Write', { file_path: 'plan-write.txt', content: 'x\n' })], [text('done')]],
      {
        projectDir,
        tools: builtinTools(),
        permissions: { mode: 'plan' },
      },
    );
    expect(result.permissionDenials).toEqual([
      {
        tool_name: 'Write',
        tool_use_id: 'toolu_01',
        tool_input: { file_path: `${projectDir}/plan-write.txt`, content: 'x\n' },
      },
    ]);
  });
});

describe('PostToolBatch tool_calls', () => {
  it("report the model's own arguments plus the fields the tool fills in by default (tools-read-write-edit, post-tool-use-failure)", async () => {
    const projectDir = tempProject({ 'a.txt': 'one\n' });
    const hooks = new HookEngine();
    const batches: unknown[] = [];
    hooks.on('PostToolBatch', ({ tool_calls }) => void batches.push(tool_calls));
    await scriptedRun(
      [
        [toolUse('toolu_01', 'Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' })],
        [toolUse('toolu_02', 'Edit', { file_path: 'a.txt', old_string: 'missing', new_string: 'x' })],
        [text('done')],
      ],
      { projectDir, hooks, tools: builtinTools(), permissions: { mode: 'acceptEdits' } },
    );
    expect(batches).toMatchObject([
      [
        {
          tool_name: 'Edit',
          tool_use_id: 'toolu_01',
          tool_input: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE', replace_all: false },
        },
      ],
      [
        {
          tool_name: 'Edit',
          tool_use_id: 'toolu_02',
          tool_input: { file_path: 'a.txt', old_string: 'missing', new_string: 'x', replace_all: false },
        },
      ],
    ]);
  });
});
