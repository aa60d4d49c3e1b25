import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, HookEngine, type HookInput, type HookOutput } from '../../src/index.js';

describe('the event map types every hook', () => {
  it('gives each handler its own event payload', () => {
    const hooks = new HookEngine();
    hooks.on('PreToolUse', (input) => {
      expectTypeOf(input.tool_name).toEqualTypeOf<string>();
      expectTypeOf(input.tool_use_id).toEqualTypeOf<string>();
      expectTypeOf(input.hook_event_name).toEqualTypeOf<'PreToolUse'>();
    });
    hooks.on('Stop', (input) => {
      expectTypeOf(input.stop_hook_active).toEqualTypeOf<boolean>();
      // prettier-ignore
      // @ts-expect-error Stop carries no tool_name
      void input.tool_name;
    });
  });

  it('refuses an output field of another event at compile time', () => {
    const hooks = new HookEngine();
    // TypeScript does not check excess properties of an unannotated arrow's return value, so a
    // handler that wants the compile-time check annotates its return type (or uses the builders);
    // the runtime contract check (HookContractError) catches the rest.
    // prettier-ignore
    // @ts-expect-error updatedInput belongs to PreToolUse, not Stop
    hooks.on('Stop', (): HookOutput<'Stop'> => ({ hookSpecificOutput: { hookEventName: 'Stop', updatedInput: {} } }));
    // prettier-ignore
    // @ts-expect-error a PreToolUse payload field is not a Stop output field
    hooks.on('Stop', () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }));
    // prettier-ignore
    // @ts-expect-error permissionDecision only takes allow | deny | ask | defer
    hooks.on('PreToolUse', () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } }));
    hooks.on('PreToolUse', () => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    }));
  });

  it('returns an unregister function', () => {
    expectTypeOf(new HookEngine().on('SessionEnd', () => undefined)).toEqualTypeOf<() => void>();
  });

  it('derives payload and output types from the schemas', () => {
    expectTypeOf<HookInput<'PostToolUse'>['duration_ms']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<HookOutput<'PreToolUse'>['hookSpecificOutput']>['updatedInput']>().toEqualTypeOf<
      Record<string, unknown> | undefined
    >();
  });
});

describe('defineTool infers the handler input from the Zod schema', () => {
  it('types the handler argument', () => {
    defineTool({
      name: 'add',
      description: 'adds',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      handler: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ a: number; b: number }>();
        return input.a + input.b;
      },
    });
  });
});
