import { deepFreeze } from '../messages/messages.js';
import { eventSpec, mergeOutcomes, refuses, type HookEventName, type HookResult } from './event-table.js';
import type { HookInput, HookPayload } from './event-schemas.js';
import type { HandlerOutcome, RegisteredHandler } from './handler.js';
import type { BackgroundHooks } from './async-hooks.js';
import { mapLimited } from './concurrency.js';
import { FailureWatch } from './failure-watch.js';
import type { HookServices } from './hook-services.js';
import { capContext } from './output-size.js';
import { compileMatcher } from './matcher.js';
import { planHandlers, type ConditionMatcher, type HookPlan } from './hook-plan.js';
import { runCallback, type HookCallback } from './transports/callback.js';
import { matchesCondition } from '../permissions/match-rule.js';

/** Options of an in-process hook. `timeout` is in seconds (default 600, as Claude Code's command hooks). */
export interface CallbackOptions {
  /** Claude Code matcher syntax: exact names, `A|B` lists, or an unanchored regex; omitted = all. */
  readonly matcher?: string;
  /** A permission rule such as `Bash(git *)`; the hook runs only for tool calls it matches (tool events). */
  readonly if?: string;
  /** Shown in logs and in model-visible labels; defaults to the function's name. */
  readonly name?: string;
  readonly timeout?: number;
}

/** Undoes a registration. Calling it twice is harmless. */
export type Unregister = () => void;

export type { ConditionMatcher, HookPlan, PlannedHandler, SkipReason } from './hook-plan.js';

/**
 * What one fire needs besides the payload. Matchers always test the payload field the event table
 * names (`matchField`: the tool name for tool events, `source` for SessionStart, …).
 */
export interface FireOptions {
  readonly signal?: AbortSignal;
  /** Reported for every handler as it finishes (lifecycle log, audit), with the handler it came from. Must not throw. */
  readonly onOutcome?: (outcome: HandlerOutcome, handler?: RegisteredHandler) => void;
  /**
   * Reported for every handler just before it runs (spans, timelines). What it returns reaches that
   * handler's run as `HookServices.traceparent` (a command hook's `TRACEPARENT`, an http hook's
   * `traceparent` header). Must not throw.
   */
  readonly onStart?: (handler: RegisteredHandler) => { readonly traceparent?: string } | undefined;
  /** The session's model access for prompt and agent hooks (see HookServices); without it they fail. */
  readonly services?: HookServices;
  /**
   * Where background (`async`) handlers go: the run's tracker, which keeps their answers for a later
   * model request and kills them at the end of the run. Without it they run detached and only
   * `onOutcome` hears from them.
   */
  readonly background?: BackgroundHooks;
  /**
   * The project folder relative permission-rule paths in `if` conditions start from (`Edit(./src/**)`);
   * default: the event's `cwd`.
   */
  readonly projectDir?: string;
  /**
   * False when nobody reads how long a handler took (no observer, timeline or tracer listens): the
   * in-process callbacks then take no clock readings and report `durationMs` 0. Default true.
   */
  readonly timed?: boolean;
}

/**
 * The fixed points of a run at which the configuration may change (hot reload):
 * `before-prompt` (before UserPromptSubmit), `before-tool` (a call passed PreToolUse and the
 * permission check and is about to run), `after-tool` (its handler returned or threw, before
 * PostToolUse), `before-stop` (the model ended its turn, before Stop hooks). A change is applied at
 * a boundary, never while an event is being dispatched. `after-tool` exists so that a change made
 * while a tool process ran can be told apart from one made between tools.
 */
export type PhaseBoundary = 'before-prompt' | 'before-tool' | 'after-tool' | 'before-stop';

/**
 * Fires an event through the run's own hook phase: the payload gets the session's common fields,
 * and the event reaches observers, the timeline, transcript flushes and `TRACEPARENT` like every
 * event of the run. Never throws.
 */
export type PhaseFire = <E extends HookEventName>(event: E, fields: HookPayload<E>) => Promise<HookResult<E>>;

/**
 * What the loop tells a boundary listener: the tool call at `before-tool` / `after-tool`, and
 * `fire`, through which a listener fires an event of its own (hot reload's ConfigChange). A loop
 * always passes `fire`; a caller driving boundaries by hand may leave it out, and then listeners
 * cannot fire events.
 */
export interface BoundaryInfo {
  readonly toolName?: string;
  readonly toolUseId?: string;
  readonly fire?: PhaseFire;
}

/**
 * Hears every event fired, with its payload as command hooks receive it on stdin, before any
 * handler runs (the `hooks record` recorder). Must not throw: one that throws is detached.
 */
export type FireListener = (event: HookEventName, payload: Readonly<Record<string, unknown>>) => void;

/** Runs at a phase boundary; the run waits for it. Must not throw (an error is ignored). */
export type BoundaryListener = (phase: PhaseBoundary, info: BoundaryInfo) => Promise<void> | void;

/** Per-event limits on how many handlers of one event run at once (missing = no limit). */
export type ConcurrencyLimits = Partial<Record<HookEventName, number>>;

/** All answers to one event, in merge order: callbacks in registration order, then external handlers in settings order. */
interface Answers {
  readonly outcomes: readonly HandlerOutcome[];
  /** True when an in-process deny/block ended the chain before every handler ran. */
  readonly shortCircuited: boolean;
}

const DEFAULT_CALLBACK_TIMEOUT_S = 600;
const NO_HANDLERS: Answers = Object.freeze({ outcomes: Object.freeze([]), shortCircuited: false });

/**
 * Holds the hooks of a session and runs them for an event.
 *
 * Contract (ordering and concurrency):
 * - In-process callbacks run one after another in registration order. Each sees the event as
 *   rewritten by the previous ones (PreToolUse `updatedInput` replaces `tool_input`, PostToolUse
 *   `updatedToolOutput` replaces `tool_response`). A refusal at a gate event ends the dispatch (see `endsChain`).
 * - External handlers (settings) matching the event then start together on that input; identical
 *   ones (same command string) run once; their answers are returned in settings order, never in
 *   completion order. Each is waited for, except on UserPromptSubmit: there a block aborts the
 *   siblings still running (their outcome is a `failed`/`aborted` one), as the reference kills them.
 * - Every handler sees one deep-frozen snapshot; none can change what another sees except through
 *   the rewrite outputs above.
 */
export class HookEngine {
  private readonly handlers: RegisteredHandler[] = [];
  /** The handlers of each event, in registration order (every tool call looks up its events; no scan of all handlers). */
  private readonly byEvent = new Map<HookEventName, readonly RegisteredHandler[]>();
  private nextId = 1;
  /** Decides `if` conditions; a matcher that throws counts as "no match", so selection never throws. */
  private readonly ifMatches: ConditionMatcher;
  private concurrency: ConcurrencyLimits;
  private readonly watch = new FailureWatch();
  private readonly boundaryListeners = new Set<BoundaryListener>();
  private readonly fireListeners = new Set<FireListener>();

  /**
   * `conditionMatches` decides `if` conditions; by default the engine evaluates them itself with
   * the permission-rule matcher (`matchesCondition`, the same the CLI uses), so in-process and
   * settings hooks with `if` run only for the calls they match; `concurrency` caps how many external handlers of an
   * event run at once (per dispatch; for background handlers, per run): the rest wait for a slot,
   * still started in settings order, answers still merged in settings order.
   */
  constructor(options: { conditionMatches?: ConditionMatcher; concurrency?: ConcurrencyLimits } = {}) {
    const matches = options.conditionMatches ?? matchesCondition;
    this.ifMatches = async (...args) => {
      try {
        return await matches(...args);
      } catch {
        return false;
      }
    };
    this.concurrency = { ...options.concurrency };
  }

  /** Replaces the per-event concurrency limits (see the constructor). @throws RangeError for a limit below 1. */
  setConcurrency(limits: ConcurrencyLimits): void {
    for (const [event, limit] of Object.entries(limits)) {
      if (!(typeof limit === 'number' && limit >= 1))
        throw new RangeError(`concurrency limit of ${event} must be at least 1, got ${String(limit)}`);
    }
    this.concurrency = { ...limits };
  }

  /**
   * Registers an in-process hook for `event`; returns a function that removes it.
   * @throws ConfigError when the matcher is an invalid regular expression.
   * @example const off = hooks.on('PreToolUse', { matcher: 'Bash' }, ({ tool_input }) => deny('no'));
   */
  on<E extends HookEventName>(event: E, handler: HookCallback<E>): Unregister;
  on<E extends HookEventName>(event: E, options: CallbackOptions, handler: HookCallback<E>): Unregister;
  on<E extends HookEventName>(
    event: E,
    optionsOrHandler: CallbackOptions | HookCallback<E>,
    maybeHandler?: HookCallback<E>,
  ): Unregister {
    const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
    const callback = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
    if (typeof callback !== 'function')
      throw new TypeError(`hooks.on('${event}'): handler must be a function`);
    compileMatcher(options.matcher);
    const origin = {
      transport: 'callback' as const,
      text: options.name ?? (callback.name || 'callback'),
      source: 'callback',
    };
    const timeoutMs = (options.timeout ?? DEFAULT_CALLBACK_TIMEOUT_S) * 1000;
    return this.add({
      id: this.nextId++,
      event,
      matcher: options.matcher,
      condition: options.if,
      origin,
      identity: undefined,
      background: false,
      run: (input, signal, _services, timed) =>
        runCallback(event, callback, origin, input as HookInput<E>, { signal, timeoutMs, timed }),
    });
  }

  /**
   * Attaches `listener` to the run's phase boundaries (see `PhaseBoundary`); returns a function that
   * detaches it. The CLI's hot reload applies settings changes there.
   */
  onBoundary(listener: BoundaryListener): Unregister {
    this.boundaryListeners.add(listener);
    return () => this.boundaryListeners.delete(listener);
  }

  /** True while a boundary listener is attached (the loop skips its boundaries otherwise). */
  watchesBoundaries(): boolean {
    return this.boundaryListeners.size > 0;
  }

  /**
   * Called by the loop at each phase boundary; resolves when every listener is done, one after
   * another in attach order. Never rejects.
   */
  async boundary(phase: PhaseBoundary, info: BoundaryInfo = {}): Promise<void> {
    for (const listener of [...this.boundaryListeners]) {
      try {
        await listener(phase, info);
      } catch {
        // A boundary listener reports its own problems; the run goes on.
      }
    }
  }

  /**
   * Attaches `listener` to every fire from now on (see `FireListener`); returns a function that
   * detaches it. While one is attached, `has()` is true for every event, so a loop builds and
   * fires every payload, handlers or not (an event without handlers still runs none).
   */
  onFire(listener: FireListener): Unregister {
    this.fireListeners.add(listener);
    return () => this.fireListeners.delete(listener);
  }

  /** Adds an already-built handler (external transports use this). Returns its unregister function. */
  add(handler: RegisteredHandler): Unregister {
    this.handlers.push(handler);
    // Copy on write: a dispatch in progress keeps iterating the list it started with.
    this.byEvent.set(handler.event, [...(this.byEvent.get(handler.event) ?? []), handler]);
    return () => {
      const index = this.handlers.indexOf(handler);
      if (index >= 0) this.handlers.splice(index, 1);
      this.byEvent.set(
        handler.event,
        (this.byEvent.get(handler.event) ?? []).filter((other) => other !== handler),
      );
    };
  }

  /** A new handler id, for transports that build RegisteredHandlers themselves. */
  allocateId(): number {
    return this.nextId++;
  }

  /** True when at least one handler is registered for `event` (lets the loop skip building payloads). */
  has(event: HookEventName): boolean {
    return this.fireListeners.size > 0 || (this.byEvent.get(event)?.length ?? 0) > 0;
  }

  /** Every registered handler, in order (for `hooks list`). */
  list(): readonly RegisteredHandler[] {
    return [...this.handlers];
  }

  /**
   * Fires `event`: runs the handlers its plan selects (see `plan`), as the class contract says, and
   * combines their answers with the event's merge rule into the typed merged result
   * (`PreToolUseMerge` for PreToolUse, `BlockingMerge` for Stop, …; see `MergedResult`), with the
   * outcomes alongside. The one way to run hooks: the loop (`fireHook`), `hookloop hooks test` and
   * hot reload's ConfigChange (through the loop's phase) all come here. Never throws: a failing
   * handler is an outcome. Callbacks that answer without a promise (and need no `if` condition
   * decided before them) have all run when `fire` returns its promise: no microtask per handler.
   * @example const { decision, reason } = await hooks.fire('PreToolUse', payload);
   */
  async fire<E extends HookEventName>(
    event: E,
    input: HookInput<E>,
    options: FireOptions = {},
  ): Promise<HookResult<E>> {
    if (this.fireListeners.size > 0) this.tellListeners(event, input as Readonly<Record<string, unknown>>);
    const dispatched = this.dispatch(event, input, options);
    const result = dispatched instanceof Promise ? await dispatched : dispatched;
    return {
      ...mergeOutcomes(event, result.outcomes),
      outcomes: result.outcomes,
      shortCircuited: result.shortCircuited,
    };
  }

  /**
   * Which handlers of `event` would run for `input`, and why each other one is skipped (matcher,
   * `if`, duplicate, an agent hook inside an agent hook's subagent); see `HookPlan`. `fire` runs
   * exactly this plan; nothing runs here. `projectDir` and `nested` as in `FireOptions`
   * (`services.nested`). Never throws (a condition matcher that throws counts as no match).
   */
  async plan<E extends HookEventName>(
    event: E,
    input: HookInput<E>,
    options: { readonly projectDir?: string; readonly nested?: boolean } = {},
  ): Promise<HookPlan> {
    return planHandlers(event, this.byEvent.get(event) ?? [], input as Readonly<Record<string, unknown>>, {
      conditionMatches: this.ifMatches,
      ...options,
    });
  }

  private tellListeners(event: HookEventName, payload: Readonly<Record<string, unknown>>): void {
    for (const listener of [...this.fireListeners]) {
      try {
        listener(event, payload);
      } catch {
        // A broken observer must not change the session; it is detached so that it cannot fail twice.
        this.fireListeners.delete(listener);
      }
    }
  }

  /**
   * Runs the plan's handlers and returns their answers in merge order. Never throws. Synchronous
   * (no promise, no microtask) while every step is: a plan without `if` conditions to decide, and
   * callbacks that answer without a promise; the first step that is not continues asynchronously.
   */
  private dispatch<E extends HookEventName>(
    event: E,
    input: HookInput<E>,
    options: FireOptions,
  ): Answers | Promise<Answers> {
    const candidates = this.byEvent.get(event);
    if (candidates === undefined || candidates.length === 0) return NO_HANDLERS;
    // The same selection `plan` reports.
    const plan = planHandlers(event, candidates, input as Readonly<Record<string, unknown>>, {
      conditionMatches: this.ifMatches,
      projectDir: options.projectDir,
      nested: options.services?.nested,
      explain: false,
    });
    return plan instanceof Promise
      ? plan.then((ready) => this.runPlan(event, ready, input, options))
      : this.runPlan(event, plan, input, options);
  }

  private runPlan(
    event: HookEventName,
    plan: HookPlan,
    input: Readonly<Record<string, unknown>>,
    options: FireOptions,
  ): Answers | Promise<Answers> {
    if (plan.callbacks.length === 0 && plan.external.length === 0) return NO_HANDLERS;
    const chain = new CallbackChain(event, deepFreeze(input) as Record<string, unknown>, options);
    const callbacks = plan.callbacks;
    for (let index = 0; index < callbacks.length; index++) {
      const handler = callbacks[index]!;
      const outcome = this.invoke(event, handler, chain.current, chain.signal, options);
      if (outcome instanceof Promise) return this.finishChain(event, plan, chain, index, outcome, options);
      if (chain.take(handler, outcome)) return chain.answers(true);
    }
    return plan.external.length === 0 ? chain.answers(false) : this.runExternal(event, plan, chain, options);
  }

  /** The callback chain from `index` on, once a callback answered with a promise. */
  private async finishChain(
    event: HookEventName,
    plan: HookPlan,
    chain: CallbackChain,
    index: number,
    pending: Promise<HandlerOutcome>,
    options: FireOptions,
  ): Promise<Answers> {
    const callbacks = plan.callbacks;
    if (chain.take(callbacks[index]!, await pending)) return chain.answers(true);
    for (let next = index + 1; next < callbacks.length; next++) {
      const handler = callbacks[next]!;
      if (chain.take(handler, await this.invoke(event, handler, chain.current, chain.signal, options)))
        return chain.answers(true);
    }
    return plan.external.length === 0 ? chain.answers(false) : this.runExternal(event, plan, chain, options);
  }

  /** The external handlers of the plan, started together on the chain's final input. */
  private async runExternal(
    event: HookEventName,
    plan: HookPlan,
    chain: CallbackChain,
    options: FireOptions,
  ): Promise<Answers> {
    const { outcomes, current, signal } = chain;
    const external = plan.external;
    const limit = this.concurrency[event] ?? Infinity;
    this.startBackground(
      event,
      external.filter((h) => h.background),
      current,
      signal,
      options,
    );
    const foreground = external.filter((h) => !h.background);
    // A blocked prompt ends the session at once in the reference: siblings still running are killed
    // (ups-block-json). Elsewhere every sibling is waited for, even after an exit 2 (multi-hooks-block-siblings).
    const siblings = new AbortController();
    const cancels = eventSpec(event).cancelSiblings;
    const cancelSiblings = () => siblings.abort();
    signal.addEventListener('abort', cancelSiblings, { once: true });
    if (signal.aborted) siblings.abort();
    try {
      const settled = await mapLimited(foreground, limit, async (handler) => {
        const outcome = await this.invoke(event, handler, current, siblings.signal, options);
        options.onOutcome?.(outcome, handler);
        if (cancels && refuses(event, outcome)) siblings.abort();
        return outcome;
      });
      outcomes.push(...settled);
    } finally {
      signal.removeEventListener('abort', cancelSiblings);
    }
    return { outcomes, shortCircuited: false };
  }

  /** Starts `async` handlers without waiting: into the run's tracker when there is one, else detached. */
  private startBackground(
    event: HookEventName,
    handlers: readonly RegisteredHandler[],
    input: Record<string, unknown>,
    signal: AbortSignal,
    options: FireOptions,
  ): void {
    const toolName = typeof input['tool_name'] === 'string' ? input['tool_name'] : undefined;
    for (const handler of handlers) {
      const run = async (runSignal: AbortSignal) => this.invoke(event, handler, input, runSignal, options);
      const onOutcome =
        options.onOutcome && ((outcome: HandlerOutcome) => options.onOutcome?.(outcome, handler));
      if (options.background) {
        const start = {
          event,
          origin: handler.origin,
          rewake: handler.rewake === true,
          limit: this.concurrency[event] ?? Infinity,
          ...(toolName !== undefined ? { toolName } : {}),
        };
        options.background.start(start, run, onOutcome);
      } else void run(signal).then((outcome) => onOutcome?.(outcome));
    }
  }

  /**
   * One handler's run, with the additionalContext cap applied and failing guards noted (see
   * FailureWatch). `onStart` hears of it first; the traceparent it returns goes to the handler.
   * Synchronous when the handler answers synchronously (see `RegisteredHandler.run`).
   */
  private invoke(
    event: HookEventName,
    handler: RegisteredHandler,
    input: Record<string, unknown>,
    signal: AbortSignal,
    options: FireOptions,
  ): HandlerOutcome | Promise<HandlerOutcome> {
    const services = options.services;
    const traceparent = options.onStart?.(handler)?.traceparent;
    const answer = handler.run(
      input,
      signal,
      traceparent === undefined ? services : { ...services, traceparent },
      options.timed !== false,
    );
    return answer instanceof Promise
      ? answer.then((outcome) => this.watch.observe(event, handler.id, capContext(outcome, input)))
      : this.watch.observe(event, handler.id, capContext(answer, input));
  }
}

/**
 * The in-process callbacks of one dispatch, one after another: their outcomes so far and the input
 * the next one sees (the previous ones' rewrites applied).
 */
class CallbackChain {
  readonly outcomes: HandlerOutcome[] = [];
  readonly signal: AbortSignal;
  current: Record<string, unknown>;

  constructor(
    private readonly event: HookEventName,
    input: Record<string, unknown>,
    private readonly options: FireOptions,
  ) {
    this.current = input;
    this.signal = options.signal ?? new AbortController().signal;
  }

  /** Records a callback's outcome; true when it ends the chain (see `endsChain`). */
  take(handler: RegisteredHandler, outcome: HandlerOutcome): boolean {
    this.outcomes.push(outcome);
    this.options.onOutcome?.(outcome, handler);
    if (endsChain(this.event, outcome)) return true;
    this.current = applyRewrite(this.event, this.current, outcome);
    return false;
  }

  answers(shortCircuited: boolean): Answers {
    return { outcomes: this.outcomes, shortCircuited };
  }
}

/**
 * Only a refusal at a gate ends the callback chain (PreToolUse deny/block, PermissionRequest deny,
 * UserPromptSubmit block): later hooks must not approve or rewrite what is already refused. On
 * observer events (PostToolUse, Stop, …) a block or `continue: false` is feedback, and every hook
 * still sees the event, so an audit hook registered last never misses a call.
 */
function endsChain(event: HookEventName, outcome: HandlerOutcome): boolean {
  return eventSpec(event).gate && (outcome.failClosed || refuses(event, outcome));
}

/** What the next in-process hook sees: the event's `rewrite` of this answer, frozen, or the same input. */
function applyRewrite(
  event: HookEventName,
  input: Record<string, unknown>,
  outcome: HandlerOutcome,
): Record<string, unknown> {
  const rewritten = eventSpec(event).rewrite?.(input, outcome.output);
  return rewritten === undefined ? input : Object.freeze({ ...rewritten });
}
