import { describe, expect, it } from 'vitest';
import { deny, HookEngine, type HookInput } from '../../src/index.js';

function preToolUse(toolInput: Record<string, unknown>): HookInput<'PreToolUse'> {
  return {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/w',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: toolInput,
    tool_use_id: 'toolu_1',
  };
}

/** Keeps the CPU busy for about `ms` milliseconds (a callback that does real work). */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('dispatch of callbacks that answer without a promise', () => {
  it('runs the whole chain before fire returns its promise', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.on('PreToolUse', () => void seen.push('first'));
    engine.on('PreToolUse', () => void seen.push('second'));
    const pending = engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(seen).toEqual(['first', 'second']);
    await pending;
  });

  it('goes on after a callback that answers with a promise, in order, and a later deny still wins', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.on('PreToolUse', () => void seen.push('sync'));
    engine.on('PreToolUse', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push('async');
    });
    engine.on('PreToolUse', () => {
      seen.push('denier');
      return deny('no');
    });
    engine.on('PreToolUse', () => void seen.push('never'));
    const result = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(seen).toEqual(['sync', 'async', 'denier']);
    expect(result.decision).toBe('deny');
    expect(result.shortCircuited).toBe(true);
  });

  it('reports how long a callback took unless the fire says nobody listens', async () => {
    const engine = new HookEngine();
    engine.on('PreToolUse', () => busy(3));
    const timed = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(timed.outcomes[0]!.durationMs).toBeGreaterThan(0);
    const untimed = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }), { timed: false });
    expect(untimed.outcomes[0]!.durationMs).toBe(0);
  });

  it('still decides `if` conditions before running the callbacks they select', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.on('PreToolUse', { if: 'Bash(git *)' }, () => void seen.push('git'));
    engine.on('PreToolUse', () => void seen.push('all'));
    await engine.fire('PreToolUse', preToolUse({ command: 'git status' }));
    await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(seen).toEqual(['git', 'all', 'all']);
  });
});
