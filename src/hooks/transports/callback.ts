import { describeError } from '../../errors.js';
import { GATE_EVENTS, type HookEventName } from '../event-table.js';
import type { HookInput, HookOutput } from '../event-schemas.js';
import type { HandlerOutcome, HandlerOrigin } from '../handler.js';
import { checkHookOutput } from '../validate-output.js';

/** What an in-process hook receives besides the event: an AbortSignal that fires when the run is aborted or the hook times out. */
export interface HookCallbackContext {
  readonly signal: AbortSignal;
}

/**
 * An in-process hook. Receives the deep-frozen event payload (the same object a command hook reads
 * on stdin); returns its output, or nothing for "no opinion". Throwing is a failure: gate events
 * (PreToolUse, PermissionRequest, UserPromptSubmit) fail closed, observers fail open and are reported.
 */
export type HookCallback<E extends HookEventName> = (
  input: Readonly<HookInput<E>>,
  context: HookCallbackContext,
) => HookOutput<E> | void | undefined | Promise<HookOutput<E> | void | undefined>;

/** Events whose in-process hooks fail closed when they throw or break the output contract: the event table's gates. */
export { GATE_EVENTS };

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Runs one callback and turns its answer into a HandlerOutcome. An output that breaks the event's
 * contract is a failure whose `error` is the HookContractError message naming the field. A promise
 * that has not settled after `timeoutMs` is a `timeout` outcome (fail closed on gate events) and
 * the context's signal fires; `outer` aborting fires it too. `timed` false: no clock is read and
 * `durationMs` is 0 (nobody listens for it); default true.
 *
 * Cost: a callback that answers synchronously gets its outcome back synchronously (no promise),
 * no timer, and the AbortSignal of its context is only created when the callback reads
 * `context.signal` (an AbortController costs microseconds in Node, more than a no-op hook itself).
 * Never throws.
 */
export function runCallback<E extends HookEventName>(
  event: E,
  callback: HookCallback<E>,
  origin: HandlerOrigin,
  input: Readonly<HookInput<E>>,
  options: { readonly signal: AbortSignal; readonly timeoutMs: number; readonly timed?: boolean | undefined },
): HandlerOutcome | Promise<HandlerOutcome> {
  const timed = options.timed !== false;
  const started = timed ? performance.now() : 0;
  const elapsed = () => (timed ? performance.now() - started : 0);
  const failClosed = GATE_EVENTS.has(event);
  const settle = (answer: unknown): HandlerOutcome => {
    const checked = checkHookOutput(event, answer);
    const durationMs = elapsed();
    if (!checked.ok)
      return { origin, status: 'failed', output: {}, error: checked.error.message, failClosed, durationMs };
    return {
      origin,
      status: 'ok',
      output: checked.output as Record<string, unknown>,
      failClosed: false,
      durationMs,
    };
  };
  const threw = (error: unknown): HandlerOutcome => ({
    origin,
    status: 'failed',
    output: {},
    error: `threw: ${describeError(error)}`,
    failClosed,
    durationMs: elapsed(),
  });

  const scope = new CallbackScope(options.signal);
  let answer: unknown;
  try {
    answer = callback(input, scope);
  } catch (error) {
    scope.release();
    return threw(error);
  }
  if (!isPromiseLike(answer)) {
    scope.release();
    return settle(answer);
  }
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    if (Number.isFinite(options.timeoutMs)) {
      timer = setTimeout(
        () => {
          scope.abort();
          scope.release();
          resolve({
            origin,
            status: 'timeout',
            output: {},
            error: `timed out after ${options.timeoutMs} ms`,
            failClosed,
            durationMs: elapsed(),
          });
        },
        Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS),
      );
      timer.unref();
    }
    Promise.resolve(answer)
      .then(settle, threw)
      .then((outcome) => {
        clearTimeout(timer);
        scope.release();
        resolve(outcome);
      });
  });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The context one callback invocation gets. Its signal is made on first read, already aborted if
 * the run was aborted or the hook timed out, and linked to the run's signal until `release`.
 */
class CallbackScope implements HookCallbackContext {
  private controller: AbortController | undefined;
  private timedOut = false;
  private released = false;
  private unlink: (() => void) | undefined;

  constructor(private readonly outer: AbortSignal) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.timedOut || this.outer.aborted) controller.abort();
      else if (!this.released) {
        const forward = () => controller.abort();
        this.outer.addEventListener('abort', forward, { once: true });
        this.unlink = () => this.outer.removeEventListener('abort', forward);
      }
    }
    return this.controller.signal;
  }

  /** The hook ran past its timeout. */
  abort(): void {
    this.timedOut = true;
    this.controller?.abort();
  }

  /** The invocation is over: stop forwarding the run's abort. Idempotent. */
  release(): void {
    this.released = true;
    this.unlink?.();
    this.unlink = undefined;
  }
}
