import { describe, expect, it } from 'vitest';
import type { HandlerOutcome, RegisteredHandler } from '../../src/hooks/handler.js';
import { HookEngine, type HookEventName, type HookInput } from '../../src/index.js';

// Reference: a UserPromptSubmit block kills a sibling hook still running (ups-block-json), while a
// PreToolUse exit 2 waits for its sibling (multi-hooks-block-siblings).

/** An external handler that answers `outcome` after `ms`, or reports that it was aborted first. */
function external(
  engine: HookEngine,
  event: HookEventName,
  name: string,
  ms: number,
  answer: Partial<HandlerOutcome>,
  log: string[],
): RegisteredHandler {
  const origin = { transport: 'command' as const, text: name, source: 'settings.json' };
  return {
    id: engine.allocateId(),
    event,
    matcher: undefined,
    condition: undefined,
    origin,
    identity: name,
    background: false,
    run: (_input, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          log.push(`${name} finished`);
          resolve({ origin, status: 'ok', output: {}, failClosed: false, durationMs: ms, ...answer });
        }, ms);
        signal.addEventListener('abort', () => {
          if (log.includes(`${name} finished`)) return;
          clearTimeout(timer);
          log.push(`${name} aborted`);
          resolve({
            origin,
            status: 'failed',
            output: {},
            error: 'aborted',
            failClosed: false,
            durationMs: 0,
          });
        });
      }),
  };
}

const common = {
  session_id: 's',
  transcript_path: '/t.jsonl',
  cwd: '/w',
  permission_mode: 'default' as const,
};

describe('external hooks of one event', () => {
  it('UserPromptSubmit: a block aborts the siblings still running', async () => {
    const engine = new HookEngine();
    const log: string[] = [];
    engine.add(
      external(engine, 'UserPromptSubmit', 'block', 20, { output: { decision: 'block', reason: 'no' } }, log),
    );
    engine.add(external(engine, 'UserPromptSubmit', 'slow', 5000, {}, log));
    const input: HookInput<'UserPromptSubmit'> = {
      ...common,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'p',
    };
    const started = Date.now();
    const { outcomes } = await engine.fire('UserPromptSubmit', input);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(log).toEqual(['block finished', 'slow aborted']);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['ok', 'failed']);
  });

  it('PreToolUse: an exit-2 block still waits for its siblings', async () => {
    const engine = new HookEngine();
    const log: string[] = [];
    engine.add(
      external(engine, 'PreToolUse', 'block', 10, { status: 'blocked', blockMessage: '[block]: no' }, log),
    );
    engine.add(external(engine, 'PreToolUse', 'slower', 150, {}, log));
    const input: HookInput<'PreToolUse'> = {
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    };
    await engine.fire('PreToolUse', input);
    expect(log).toEqual(['block finished', 'slower finished']);
  });
});
