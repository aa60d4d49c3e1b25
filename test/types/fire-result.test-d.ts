import { describe, expectTypeOf, it } from 'vitest';
import {
  addContext,
  block,
  HookEngine,
  type BlockFeedback,
  type ContextEvent,
  type HookInput,
  type HookOutput,
  type HookResult,
  type PreToolDecision,
} from '../../src/index.js';

declare const preToolUse: HookInput<'PreToolUse'>;
declare const stop: HookInput<'Stop'>;
declare const permissionRequest: HookInput<'PermissionRequest'>;
declare const postToolUse: HookInput<'PostToolUse'>;
declare const sessionStart: HookInput<'SessionStart'>;
declare const elicitation: HookInput<'Elicitation'>;
declare const notification: HookInput<'Notification'>;

describe('fire returns the typed merged result of its event', () => {
  const hooks = new HookEngine();

  it('PreToolUse: a permission decision, its reason and the rewrite; no blocks', async () => {
    const result = await hooks.fire('PreToolUse', preToolUse);
    expectTypeOf(result.decision).toEqualTypeOf<PreToolDecision | undefined>();
    expectTypeOf(result.reason).toEqualTypeOf<string | undefined>();
    expectTypeOf(result.updatedInput).toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf(result.contexts).toEqualTypeOf<readonly string[]>();
    // prettier-ignore
    // @ts-expect-error PreToolUse answers merge into a decision, not into blocks
    void result.blocks;
  });

  it('Stop: the blocks that send the model back to work; no decision', async () => {
    const result = await hooks.fire('Stop', stop);
    expectTypeOf(result.blocks).toEqualTypeOf<readonly BlockFeedback[]>();
    // prettier-ignore
    // @ts-expect-error Stop has no permission decision
    void result.decision;
  });

  it('the other rules: PermissionRequest, PostToolUse, SessionStart, Elicitation, observers', async () => {
    expectTypeOf((await hooks.fire('PermissionRequest', permissionRequest)).behavior).toEqualTypeOf<
      'allow' | 'deny' | 'defer' | undefined
    >();
    expectTypeOf((await hooks.fire('PostToolUse', postToolUse)).updatedToolOutput).toEqualTypeOf<
      { readonly value: unknown } | undefined
    >();
    expectTypeOf((await hooks.fire('SessionStart', sessionStart)).initialUserMessage).toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf((await hooks.fire('Elicitation', elicitation)).answer?.action).toEqualTypeOf<
      'accept' | 'decline' | 'cancel' | undefined
    >();
    const observed = await hooks.fire('Notification', notification);
    expectTypeOf(observed.systemMessages).toEqualTypeOf<readonly string[]>();
    // prettier-ignore
    // @ts-expect-error Notification cannot block
    void observed.blocks;
  });

  it('always carries the outcomes in merge order', () => {
    expectTypeOf<HookResult<'SessionEnd'>['outcomes']>().toEqualTypeOf<
      readonly import('../../src/index.js').HandlerOutcome[]
    >();
  });
});

describe('a handler cannot answer another event', () => {
  it('a PreToolUse handler returning a Stop-only answer does not compile', () => {
    const hooks = new HookEngine();
    // prettier-ignore
    // @ts-expect-error a Stop-specific output is not a PreToolUse output
    hooks.on('PreToolUse', (): HookOutput<'PreToolUse'> => ({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } }));
    // prettier-ignore
    // @ts-expect-error the same through the builder: addContext('Stop', …) is a Stop answer
    hooks.on('PreToolUse', () => addContext('Stop', 'keep going'));
    hooks.on('PreToolUse', () => addContext('PreToolUse', 'fine'));
    // block() is shared: PreToolUse still honours the legacy top-level decision.
    hooks.on('PreToolUse', () => block('no'));
  });

  it('ContextEvent is read from the output schemas, subagent events included', () => {
    expectTypeOf<'SubagentStart'>().toExtend<ContextEvent>();
    expectTypeOf<'SubagentStop'>().toExtend<ContextEvent>();
    expectTypeOf<'PostToolUseFailure'>().toExtend<ContextEvent>();
    expectTypeOf<'Notification' extends ContextEvent ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'PermissionRequest' extends ContextEvent ? true : false>().toEqualTypeOf<false>();
  });
});
