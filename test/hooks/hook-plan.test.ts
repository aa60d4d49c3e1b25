import { describe, expect, it } from 'vitest';
import { allow, HookEngine, type HookInput } from '../../src/index.js';

const preToolUse = (command: string): HookInput<'PreToolUse'> => ({
  session_id: 's',
  transcript_path: '/t',
  cwd: '/w',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

describe('HookEngine.plan', () => {
  it('says which handlers run and why the others do not, and fire runs exactly those', async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    const hook = (name: string) =>
      function named() {
        ran.push(name);
        return allow();
      };
    engine.on('PreToolUse', { matcher: 'Read', name: 'reader' }, hook('reader'));
    engine.on('PreToolUse', { matcher: 'Bash', if: 'Bash(git *)', name: 'git-only' }, hook('git-only'));
    engine.on('PreToolUse', { matcher: 'Bash', name: 'bash' }, hook('bash'));
    const plan = await engine.plan('PreToolUse', preToolUse('ls'));
    expect(plan.matchValue).toBe('Bash');
    expect(plan.handlers.map((entry) => [entry.handler.origin.text, entry.skip?.kind])).toEqual([
      ['reader', 'matcher'],
      ['git-only', 'if'],
      ['bash', undefined],
    ]);
    expect(plan.handlers[0]?.skip).toEqual({ kind: 'matcher', matcher: 'Read', value: 'Bash' });
    expect(ran).toEqual([]); // planning runs nothing
    const fired = await engine.fire('PreToolUse', preToolUse('ls'));
    expect(ran).toEqual(['bash']);
    expect(fired.decision).toBe('allow');
    const git = await engine.plan('PreToolUse', preToolUse('git status'));
    expect(git.callbacks.map((handler) => handler.origin.text)).toEqual(['git-only', 'bash']);
  });

  it('an `if` on an event that is not about a tool call never runs, and the plan says so', async () => {
    const engine = new HookEngine();
    let ran = false;
    engine.on('SessionStart', { if: 'Bash(*)' }, () => void (ran = true));
    const start = {
      session_id: 's',
      transcript_path: '/t',
      cwd: '/w',
      hook_event_name: 'SessionStart',
      source: 'startup',
    } as const;
    expect((await engine.plan('SessionStart', start)).handlers[0]?.skip).toEqual({
      kind: 'if-off-tool-event',
      condition: 'Bash(*)',
    });
    await engine.fire('SessionStart', start);
    expect(ran).toBe(false);
  });
});
