import { describe, expect, it } from 'vitest';
import { HookEngine, type HookInput } from '../../src/index.js';

// The callback transport creates a hook's AbortSignal only when the hook reads it and starts a
// timer only for hooks that return a promise; these tests pin the behaviour that must not change.

function stopInput(): HookInput<'Stop'> {
  return {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/w',
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: '',
    background_tasks: [],
    session_crons: [],
  };
}

describe('callback hooks: timeout and signal', () => {
  it('a hook that never settles times out, and its signal fires', async () => {
    const engine = new HookEngine();
    let seen: AbortSignal | undefined;
    engine.on('Stop', { timeout: 0.02 }, ({ stop_hook_active: _ }, { signal }) => {
      seen = signal;
      return new Promise<undefined>(() => {});
    });
    const { outcomes } = await engine.fire('Stop', stopInput());
    expect(outcomes[0]).toMatchObject({ status: 'timeout', failClosed: false });
    expect(seen?.aborted).toBe(true);
  });

  it('a hook reading its signal after the timeout gets an aborted one', async () => {
    const engine = new HookEngine();
    let late: AbortSignal | undefined;
    engine.on(
      'Stop',
      { timeout: 0.01 },
      (_input, context) =>
        new Promise<undefined>((resolve) =>
          setTimeout(() => ((late = context.signal), resolve(undefined)), 50),
        ),
    );
    await engine.fire('Stop', stopInput());
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(late?.aborted).toBe(true);
  });

  it('aborting the run fires the signal of a running hook, and a synchronous hook sees an already aborted run', async () => {
    const engine = new HookEngine();
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    engine.on('Stop', (_input, { signal }) => {
      signals.push(signal);
      return new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined)));
    });
    const pending = engine.fire('Stop', stopInput(), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signals[0]?.aborted).toBe(false);
    controller.abort();
    const { outcomes } = await pending;
    expect(outcomes[0]).toMatchObject({ status: 'ok' });
    expect(signals[0]?.aborted).toBe(true);

    const syncEngine = new HookEngine();
    syncEngine.on('Stop', (_input, { signal }) => void signals.push(signal));
    await syncEngine.fire('Stop', stopInput(), { signal: controller.signal });
    expect(signals[1]?.aborted).toBe(true);
  });

  it('a synchronous answer and a synchronous throw are outcomes like their async forms', async () => {
    const engine = new HookEngine();
    engine.on('PreToolUse', () => {
      throw new Error('sync boom');
    });
    const input: HookInput<'PreToolUse'> = {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/w',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: {},
      tool_use_id: 't1',
    };
    const { outcomes } = await engine.fire('PreToolUse', input);
    expect(outcomes[0]).toMatchObject({ status: 'failed', failClosed: true, error: 'threw: sync boom' });

    const asyncEngine = new HookEngine();
    asyncEngine.on('PreToolUse', async () => ({ systemMessage: 'hi' }));
    const answered = await asyncEngine.fire('PreToolUse', input);
    expect(answered.outcomes[0]).toMatchObject({ status: 'ok', output: { systemMessage: 'hi' } });
  });

  it('a hook that unregisters another during a dispatch does not disturb the dispatch in progress', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    let offSecond = () => {};
    engine.on('Stop', () => {
      seen.push('first');
      offSecond();
    });
    offSecond = engine.on('Stop', () => void seen.push('second'));
    await engine.fire('Stop', stopInput());
    await engine.fire('Stop', stopInput());
    expect(seen).toEqual(['first', 'second', 'first']);
  });
});
