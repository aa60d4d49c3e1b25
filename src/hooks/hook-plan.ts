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
 *
 * Cost: the plan is returned synchronously (no promise, no microtask) when no candidate's `if`
 * condition has to be evaluated; `if` conditions are decided first, one after another in
 * registration order, and the selection then runs once on their verdicts.
 */
export function planHandlers(
  event: HookEventName,
  candidates: readonly RegisteredHandler[],
  input: Readonly<Record<string, unknown>>,
  context: PlanContext,
): HookPlan | Promise<HookPlan> {
  const matchValue = matchValueOf(event, input);
  const asked = candidates.filter((handler) => conditionToAsk(event, handler, input, matchValue));
  if (asked.length === 0) return selectHandlers(event, candidates, input, matchValue, context, NO_VERDICTS);
  return decideConditions(asked, input, context).then((verdicts) =>
    selectHandlers(event, candidates, input, matchValue, context, verdicts),
  );
}

const NO_VERDICTS: ReadonlyMap<RegisteredHandler, boolean> = new Map();

/** True when `handler`'s matcher passes and its `if` condition is one this event evaluates. */
function conditionToAsk(
  event: HookEventName,
  handler: RegisteredHandler,
  input: Readonly<Record<string, unknown>>,
  matchValue: string | undefined,
): boolean {
  return (
    handler.condition !== undefined &&
    eventSpec(event).acceptsIf &&
    typeof input['tool_name'] === 'string' &&
    (matchValue === undefined || matcherMatches(handler.matcher, matchValue))
  );
}

/** Each asked handler's `if` verdict, decided in registration order. */
async function decideConditions(
  asked: readonly RegisteredHandler[],
  input: Readonly<Record<string, unknown>>,
  context: PlanContext,
): Promise<ReadonlyMap<RegisteredHandler, boolean>> {
  const toolName = input['tool_name'] as string;
  const cwd = typeof input['cwd'] === 'string' ? input['cwd'] : process.cwd();
  const verdicts = new Map<RegisteredHandler, boolean>();
  for (const handler of asked) {
    verdicts.set(
      handler,
      await context.conditionMatches(
        handler.condition!,
        toolName,
        input['tool_input'],
        cwd,
        context.projectDir ?? cwd,
      ),
    );
  }
  return verdicts;
}

function selectHandlers(
  event: HookEventName,
  candidates: readonly RegisteredHandler[],
  input: Readonly<Record<string, unknown>>,
  matchValue: string | undefined,
  context: PlanContext,
  verdicts: ReadonlyMap<RegisteredHandler, boolean>,
): HookPlan {
  const handlers: PlannedHandler[] = [];
  const callbacks: RegisteredHandler[] = [];
  const external: RegisteredHandler[] = [];
  const seen = new Map<string, RegisteredHandler>();
  for (const handler of candidates) {
    const skip =
      skipReason(event, handler, input, matchValue, verdicts) ?? externalSkip(handler, seen, context);
    if (context.explain !== false) handlers.push(skip === undefined ? { handler } : { handler, skip });
    if (skip !== undefined) continue;
    if (handler.origin.transport === 'callback') callbacks.push(handler);
    else external.push(handler);
  }
  return { event, matchValue, handlers, callbacks, external };
}

function skipReason(
  event: HookEventName,
  handler: RegisteredHandler,
  input: Readonly<Record<string, unknown>>,
  matchValue: string | undefined,
  verdicts: ReadonlyMap<RegisteredHandler, boolean>,
): SkipReason | undefined {
  if (matchValue !== undefined && !matcherMatches(handler.matcher, matchValue))
    return { kind: 'matcher', matcher: handler.matcher ?? '', value: matchValue };
  const condition = handler.condition;
  if (condition === undefined) return undefined;
  // Claude Code evaluates `if` on tool events only; on other events a handler with `if` never runs.
  if (!eventSpec(event).acceptsIf || typeof input['tool_name'] !== 'string')
    return { kind: 'if-off-tool-event', condition };
  return verdicts.get(handler) ? undefined : { kind: 'if', condition };
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
