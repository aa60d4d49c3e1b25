import { describe, expect, it } from 'vitest';
import { SessionHookEngine } from '../../src/cli/hooks-command/session-engine.js';
import type { HookServices } from '../../src/index.js';

const start = { session_id: 's', transcript_path: '/t', cwd: '/w', hook_event_name: 'SessionStart', source: 'startup' } as const;

describe('SessionHookEngine', () => {
  it('shows listeners every payload before the handlers, and dispatches every event while one listens', async () => {
    const engine = new SessionHookEngine();
    const seen: string[] = [];
    engine.on('SessionStart', () => {
      seen.push('handler');
    });
    expect(engine.has('Stop')).toBe(false);
    const untap = engine.tap((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
    expect(engine.has('Stop')).toBe(true);
    await engine.dispatch('SessionStart', start);
    expect(seen).toEqual([`SessionStart ${JSON.stringify(start)}`, 'handler']);
    untap();
    expect(engine.has('Stop')).toBe(false);
  });

  it('detaches a listener that throws, without disturbing the dispatch', async () => {
    const engine = new SessionHookEngine();
    let calls = 0;
    engine.tap(() => {
      calls++;
      throw new Error('broken recorder');
    });
    await expect(engine.dispatch('SessionStart', start)).resolves.toMatchObject({ outcomes: [] });
    await engine.dispatch('SessionStart', start);
    expect(calls).toBe(1);
  });

  it('keeps the services of the session\'s dispatches, not those of an agent hook\'s sub-run', async () => {
    const engine = new SessionHookEngine();
    const session: HookServices = {};
    const nested: HookServices = { nested: true };
    expect(engine.sessionServices()).toBeUndefined();
    await engine.dispatch('SessionStart', start, { services: session });
    await engine.dispatch('SessionStart', start, { services: nested });
    expect(engine.sessionServices()).toBe(session);
  });
});
