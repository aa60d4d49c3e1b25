import { describe, expect, it } from 'vitest';
import { allow, deny, HookEngine, type HookInput, rewriteInput } from '../../src/index.js';

function preToolUse(toolInput: Record<string, unknown>, toolName = 'Bash'): HookInput<'PreToolUse'> {
  return {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/w',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_1',
  };
}

describe('HookEngine callbacks', () => {
  it('runs only the callbacks whose matcher matches the tool name', async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    engine.on('PreToolUse', { matcher: 'Write|Edit' }, () => void seen.push('edit-hook'));
    engine.on('PreToolUse', { matcher: 'Bash' }, () => void seen.push('bash-hook'));
    engine.on('PreToolUse', () => void seen.push('all-hook'));
    await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(seen).toEqual(['bash-hook', 'all-hook']);
  });

  it('register returns an unregister function that removes the hook', async () => {
    const engine = new HookEngine();
    let calls = 0;
    const off = engine.on('PreToolUse', () => void calls++);
    await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    off();
    off();
    await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(calls).toBe(1);
    expect(engine.has('PreToolUse')).toBe(false);
  });

  it('chains PreToolUse rewrites in registration order, each seeing the previous rewrite', async () => {
    const engine = new HookEngine();
    engine.on('PreToolUse', ({ tool_input }) =>
      rewriteInput({ command: `${String(tool_input['command'])} --one` }),
    );
    engine.on('PreToolUse', ({ tool_input }) =>
      rewriteInput({ command: `${String(tool_input['command'])} --two` }),
    );
    const fired = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(fired.updatedInput).toEqual({ command: 'ls --one --two' });
  });

  it("three chained PostToolUse callbacks see each other's rewrites in registration order", async () => {
    const engine = new HookEngine();
    const seen: unknown[] = [];
    for (const suffix of ['a', 'b', 'c']) {
      engine.on('PostToolUse', ({ tool_response }) => {
        seen.push(tool_response);
        return {
          hookSpecificOutput: {
            hookEventName: 'PostToolUse',
            updatedToolOutput: `${String(tool_response)}${suffix}`,
          },
        };
      });
    }
    const input: HookInput<'PostToolUse'> = {
      ...preToolUse({ command: 'ls' }),
      hook_event_name: 'PostToolUse',
      tool_response: 'x',
      duration_ms: 1,
    };
    const fired = await engine.fire('PostToolUse', input);
    expect(seen).toEqual(['x', 'xa', 'xab']);
    expect(fired.updatedToolOutput?.value).toBe('xabc');
  });

  it('a deny short-circuits the callbacks registered after it', async () => {
    const engine = new HookEngine();
    let later = false;
    engine.on('PreToolUse', () => deny('no'));
    engine.on('PreToolUse', () => {
      later = true;
      return allow();
    });
    const result = await engine.fire('PreToolUse', preToolUse({ command: 'rm -rf /' }));
    expect(later).toBe(false);
    expect(result.shortCircuited).toBe(true);
    expect(result).toMatchObject({ decision: 'deny', reason: 'no' });
  });

  it('hooks see a deep-frozen event they cannot change for others', async () => {
    const engine = new HookEngine();
    let mutationError: unknown;
    engine.on('PreToolUse', (event) => {
      try {
        (event.tool_input as Record<string, unknown>)['command'] = 'rm -rf /';
      } catch (error) {
        mutationError = error;
      }
    });
    let seen: unknown;
    engine.on('PreToolUse', (event) => void (seen = event.tool_input['command']));
    await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(mutationError).toBeInstanceOf(TypeError);
    expect(seen).toBe('ls');
  });

  it('a field that does not belong to the event is a contract error naming it, and a PreToolUse gate fails closed', async () => {
    const engine = new HookEngine();
    // A Stop-only field returned from PreToolUse (the cast simulates untyped JavaScript callers).
    engine.on(
      'PreToolUse',
      () =>
        ({
          hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'x', stopHookActive: true },
        }) as never,
    );
    const fired = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(fired.outcomes[0]!.status).toBe('failed');
    expect(fired.outcomes[0]!.error).toContain('hookSpecificOutput.stopHookActive');
    expect(fired.decision).toBe('deny');
  });

  it('a throwing observer hook fails open and is reported', async () => {
    const engine = new HookEngine();
    engine.on('PostToolUse', () => {
      throw new Error('audit disk full');
    });
    const input: HookInput<'PostToolUse'> = {
      ...preToolUse({ command: 'ls' }),
      hook_event_name: 'PostToolUse',
      tool_response: 'x',
      duration_ms: 1,
    };
    const fired = await engine.fire('PostToolUse', input);
    expect(fired.outcomes[0]).toMatchObject({
      status: 'failed',
      failClosed: false,
      error: 'threw: audit disk full',
    });
  });

  it('a hanging gate callback times out and fails closed', async () => {
    const engine = new HookEngine();
    engine.on('PreToolUse', { timeout: 0.05 }, () => new Promise(() => {}));
    const fired = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
    expect(fired.outcomes[0]).toMatchObject({ status: 'timeout', failClosed: true });
    expect(fired.decision).toBe('deny');
  });

  it('merges decisions with deny > defer > ask > allow whatever the order', async () => {
    const decisions = ['allow', 'ask', 'defer', 'deny'] as const;
    for (const order of [decisions, [...decisions].reverse()]) {
      const engine = new HookEngine();
      for (const decision of order) {
        engine.on('PreToolUse', () => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: decision,
            permissionDecisionReason: decision,
          },
        }));
      }
      const fired = await engine.fire('PreToolUse', preToolUse({ command: 'ls' }));
      // deny short-circuits when it comes first; either way the result is deny
      expect(fired).toMatchObject({ decision: 'deny', reason: 'deny' });
    }
  });

  it('rejects an invalid matcher regex at registration', () => {
    const engine = new HookEngine();
    expect(() => engine.on('PreToolUse', { matcher: '(unclosed' }, () => undefined)).toThrow(/matcher/i);
  });
});
