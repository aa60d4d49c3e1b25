import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';

const start = {
  session_id: 's',
  transcript_path: '/t',
  cwd: '/w',
  hook_event_name: 'SessionStart',
  source: 'startup',
} as const;

// The session's services that the removed CLI subclass kept for hot reload are gone: ConfigChange
// now fires through the loop's own hook phase, which has them (see hot-reload.test.ts).
describe('HookEngine.onFire', () => {
  it('shows listeners every payload before the handlers, and fires every event while one listens', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.on('SessionStart', () => {
      seen.push('handler');
    });
    expect(engine.has('Stop')).toBe(false);
    const detach = engine.onFire((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
    expect(engine.has('Stop')).toBe(true);
    await engine.fire('SessionStart', start);
    expect(seen).toEqual([`SessionStart ${JSON.stringify(start)}`, 'handler']);
    detach();
    expect(engine.has('Stop')).toBe(false);
  });

  it('detaches a listener that throws, without disturbing the fire', async () => {
    const engine = new HookEngine();
    let calls = 0;
    engine.onFire(() => {
      calls++;
      throw new Error('broken recorder');
    });
    await expect(engine.fire('SessionStart', start)).resolves.toMatchObject({ outcomes: [] });
    await engine.fire('SessionStart', start);
    expect(calls).toBe(1);
  });
});
