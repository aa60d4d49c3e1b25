import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

// What the loop reports about a call besides its result: `permission_denials` of the JSON result and
// the `tool_calls` of PostToolBatch, in the shapes Claude Code 2.1.328 uses (conformance traces).

describe('permission_denials', () => {
  it('names the refused input as PreToolUse saw it: file paths absolute (mode-plan, mode-accept-edits)', async () => {
    const projectDir = tempProject();
    const { result } = await scriptedRun([[toolUse('toolu_01', 'Write', { file_path: 'plan-write.txt', content: 'x\n' })], [text('done')]], {
      projectDir,
      tools: builtinTools(),
      permissions: { mode: 'plan' },
    });
    expect(result.permissionDenials).toEqual([{ tool_name: 'Write', tool_use_id: 'toolu_01', tool_input: { file_path: `${projectDir}/plan-write.txt`, content: 'x\n' } }]);
  });
});
