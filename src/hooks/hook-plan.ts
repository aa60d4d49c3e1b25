import { eventSpec, matchValueOf, type HookEventName } from './event-table.js';
import type { RegisteredHandler } from './handler.js';
import { matcherMatches } from './matcher.js';

/**
 * The engine's selection, in one place: which registered handlers of an event run for one input,
 * and why each of the others does not. `fire` runs exactly the plan's `running` handlers;
 * `hookloop hooks test` prints the plan, so its explanation cannot drift from what a run does.
 */

/**
 * Decides whether an `if` condition (a permission rule) matches a tool call. `cwd` is the event's
 * `cwd`, `projectDir` the fire's (see `FireOptions.projectDir`).
 */
export type ConditionMatcher = (
  rule: string,
  toolName: string,
  toolInput: unknown,
  cwd: string,
  projectDir: string,
) => Promise<boolean> | boolean;

/**
 * Why a handler does not run for this input, in the order they are checked:
 * - `matcher`: its matcher does not match `value` (the payload field the event table names);
 * - `if-off-tool-event`: it has an `if` condition, which only tool events evaluate, so it never runs here;
 * - `if`: its `if` condition does not match this tool call;
 * - `duplicate`: an identical external handler earlier in settings order runs instead (`of`);
 * - `nested-agent`: an agent hook inside an agent hook's own subagent (it would start itself again).
 */
export type SkipReason =
  | { readonly kind: 'matcher'; readonly matcher: string; readonly value: string }
  | { readonly kind: 'if-off-tool-event'; readonly condition: string }
  | { readonly kind: 'if'; readonly condition: string }
  | { readonly kind: 'duplicate'; readonly of: RegisteredHandler }
  | { readonly kind: 'nested-agent' };

/** One registered handler of the event: it runs (`skip` undefined) or why not. */
export interface PlannedHandler {
  readonly handler: RegisteredHandler;
  readonly skip?: SkipReason;
}

/**
 * The plan for one input. `handlers` lists every handler registered for the event, in
 * registration order; `running` those that run, callbacks first (they run in a chain before the
 * external ones start); `matchValue` is the value matchers were tested against (undefined = the
 * event has no match field, or the payload lacks it, and every matcher matches).
 */
export interface HookPlan {
  readonly event: HookEventName;
  readonly matchValue: string | undefined;
  readonly handlers: readonly PlannedHandler[];
  readonly callbacks: readonly RegisteredHandler[];
  readonly external: readonly RegisteredHandler[];
}

/** What selection needs besides the handlers and the input. */
export interface PlanContext {
  readonly conditionMatches: ConditionMatcher;
  /** Where relative paths in `if` conditions start; default: the payload's `cwd`. */
  readonly projectDir?: string | undefined;
  /** True inside an agent hook's own subagent, where agent hooks do not run. */
  readonly nested?: boolean | undefined;
  /** False when only the running handlers are wanted (`fire`): `handlers` stays empty, saving an object per handler per event. */
  readonly explain?: boolean;
}

/**
 * Plans `event` for `input` over `candidates` (its handlers in registration order): matcher, then
 * `if`, then, among external handlers that pass, identical ones (same identity) run once and agent
 * hooks stay out of an agent hook's own subagent. Rejects only if the condition matcher does.
 */
export async function planHandlers(
  event: HookEventName,
  candidates: readonly RegisteredHandler[],
  input: Readonly<Record<string, unknown>>,
  context: PlanContext,
): Promise<HookPlan> {
  const matchValue = matchValueOf(event, input);
  const handlers: PlannedHandler[] = [];
  const callbacks: RegisteredHandler[] = [];
  const external: RegisteredHandler[] = [];
  const seen = new Map<string, RegisteredHandler>();
  for (const handler of candidates) {
    const skip =
      (await skipReason(event, handler, input, matchValue, context)) ?? externalSkip(handler, seen, context);
    if (context.explain !== false) handlers.push(skip === undefined ? { handler } : { handler, skip });
    if (skip !== undefined) continue;
    if (handler.origin.transport === 'callback') callbacks.push(handler);
    else external.push(handler);
  }
  return { event, matchValue, handlers, callbacks, external };
}

async function skipReason(
  event: HookEventName,
  handler: RegisteredHandler,
  input: Readonly<Record<string, unknown>>,
  matchValue: string | undefined,
  context: PlanContext,
): Promise<SkipReason | undefined> {
  if (matchValue !== undefined && !matcherMatches(handler.matcher, matchValue))
    return { kind: 'matcher', matcher: handler.matcher ?? '', value: matchValue };
  const condition = handler.condition;
  if (condition === undefined) return undefined;
  const toolName = input['tool_name'];
  // Claude Code evaluates `if` on tool events only; on other events a handler with `if` never runs.
  if (!eventSpec(event).acceptsIf || typeof toolName !== 'string')
    return { kind: 'if-off-tool-event', condition };
  const cwd = typeof input['cwd'] === 'string' ? input['cwd'] : process.cwd();
  const matches = await context.conditionMatches(
    condition,
    toolName,
    input['tool_input'],
    cwd,
    context.projectDir ?? cwd,
  );
  return matches ? undefined : { kind: 'if', condition };
}

/** Dedupe and the nested-agent rule, for an external handler that matched; records the ones that run. */
function externalSkip(
  handler: RegisteredHandler,
  seen: Map<string, RegisteredHandler>,
  context: PlanContext,
): SkipReason | undefined {
  if (handler.origin.transport === 'callback') return undefined;
  if (context.nested === true && handler.origin.transport === 'agent') return { kind: 'nested-agent' };
  if (handler.identity === undefined) return undefined;
  const first = seen.get(handler.identity);
  if (first !== undefined) return { kind: 'duplicate', of: first };
  seen.set(handler.identity, handler);
  return undefined;
}
