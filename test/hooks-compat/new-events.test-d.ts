import { describe, expectTypeOf, it } from 'vitest';
import { HookEngine, type HookInput, type HookOutput } from '../../src/index.js';

describe('the compatibility events are in the one event map', () => {
  it('types their payloads', () => {
    const hooks = new HookEngine();
    hooks.on('PermissionDenied', (input) => {
      expectTypeOf(input.reason).toEqualTypeOf<string>();
      expectTypeOf(input.tool_use_id).toEqualTypeOf<string>();
    });
    hooks.on('Notification', (input) => {
      expectTypeOf(input.notification_type).toEqualTypeOf<string>();
    });
    hooks.on('SubagentStart', (input) => {
      expectTypeOf(input.agent_id).toEqualTypeOf<string>();
    });
    hooks.on('SubagentStop', (input) => {
      expectTypeOf(input.agent_type).toEqualTypeOf<string>();
      expectTypeOf(input.stop_hook_active).toEqualTypeOf<boolean>();
    });
    // Tool events inside a subagent may carry its id.
    expectTypeOf<HookInput<'PreToolUse'>['agent_id']>().toEqualTypeOf<string | undefined>();
  });

  it('types their outputs: retry only on PermissionDenied, no decision on Notification', () => {
    expectTypeOf<NonNullable<HookOutput<'PermissionDenied'>['hookSpecificOutput']>['retry']>().toEqualTypeOf<
      boolean | undefined
    >();
    const hooks = new HookEngine();
    hooks.on('PermissionDenied', () => ({
      hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true },
    }));
    // prettier-ignore
    // @ts-expect-error Notification cannot block
    hooks.on('Notification', (): HookOutput<'Notification'> => ({ decision: 'block' }));
    hooks.on('SubagentStop', () => ({ decision: 'block', reason: 'look again' }));
  });
});
