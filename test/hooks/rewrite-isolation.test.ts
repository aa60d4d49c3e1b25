import { describe, expect, it } from 'vitest';
import { HookEngine, type HookInput, replaceOutput, rewriteInput } from '../../src/index.js';

// Rewrites are detached from the hook that made them without structuredClone of strings (bench row
// 5): objects are copied, so changing them afterwards changes nothing; strings are shared as is.

function postToolUse(response: unknown): HookInput<'PostToolUse'> {
  return {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/w',
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: {},
    tool_response: response,
    tool_use_id: 't1',
    duration_ms: 1,
  };
}

describe('hook rewrites are detached from the hook', () => {
  it('a rewritten output object changed by its hook afterwards is not what the next hook sees', async () => {
    const engine = new HookEngine();
    const mine = { stdout: 'first', nested: { list: [1, 2] }, when: new Date(0) };
    engine.on('PostToolUse', () => replaceOutput(mine));
    let seen: unknown;
    engine.on('PostToolUse', ({ tool_response }) => {
      mine.stdout = 'changed';
      mine.nested.list.push(3);
      seen = tool_response;
    });
    await engine.fire('PostToolUse', postToolUse({ stdout: 'orig' }));
    expect(seen).toEqual({ stdout: 'first', nested: { list: [1, 2] }, when: new Date(0) });
    expect(Object.isFrozen((seen as { nested: object }).nested)).toBe(true);
  });

  it('a rewritten string output and a rewritten input reach the next hook unchanged', async () => {
    const engine = new HookEngine();
    const big = 'x'.repeat(1 << 20);
    engine.on('PostToolUse', () => replaceOutput(big));
    let seen: unknown;
    engine.on('PostToolUse', ({ tool_response }) => void (seen = tool_response));
    await engine.fire('PostToolUse', postToolUse('small'));
    expect(seen).toBe(big);

    const pre = new HookEngine();
    const input = { command: 'ls', args: ['-l'] };
    pre.on('PreToolUse', () => rewriteInput(input));
    let seenInput: unknown;
    pre.on('PreToolUse', ({ tool_input }) => {
      input.args.push('-a');
      seenInput = tool_input;
    });
    await pre.fire('PreToolUse', {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/w',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'pwd' },
      tool_use_id: 't1',
    });
    expect(seenInput).toEqual({ command: 'ls', args: ['-l'] });
  });
});
