import { Limiter } from './concurrency.js';
import type { HookEventName } from './event-names.js';
import type { HandlerOrigin, HandlerOutcome } from './handler.js';

/**
 * Background hooks of one run (`async: true` and `asyncRewake: true` command hooks; conformance
 * async-hook): the dispatch starts them and returns at once; what they answer is kept here until
 * the loop collects it before its next model request. At the end of the run the ones still
 * running are killed (`stop`), as the reference kills them at exit.
 */

/** What a finished background hook left for the model. */
export interface BackgroundDelivery {
  readonly event: HookEventName;
  /** The tool of a tool event, for labels. */
  readonly toolName?: string;
  readonly origin: HandlerOrigin;
  /** Its `additionalContext`: the model gets it as bare system text on a later request. */
  readonly context?: string;
  /** `asyncRewake` only: its blocking answer (`[<cmd>]: <stderr>` for exit 2, else the JSON `reason`). */
  readonly block?: string;
}

/** What `start` needs to know about the handler. */
export interface BackgroundStart {
  readonly event: HookEventName;
  readonly toolName?: string;
  readonly origin: HandlerOrigin;
  readonly rewake: boolean;
  /** At most this many background handlers of the event run at once (the rest wait); default no limit. */
  readonly limit?: number;
}

interface Running {
  readonly controller: AbortController;
  readonly rewake: boolean;
  readonly settled: Promise<void>;
}

/**
 * Tracks the background handlers of one run. Contract: `start` never throws and never rejects
 * later; deliveries come out of `take()` in completion order (they are answers that arrive over
 * time); nothing is delivered after `stop()`.
 */
export class BackgroundHooks {
  private readonly running = new Set<Running>();
  private readonly limiters = new Map<HookEventName, Limiter>();
  private deliveries: BackgroundDelivery[] = [];
  private notices: string[] = [];
  private stopped = false;

  /** `signal`: the run's abort signal; aborting it kills every background handler. */
  constructor(private readonly signal: AbortSignal = new AbortController().signal) {}

  /**
   * Starts `run` (one handler's invocation) in the background. `onOutcome` hears its outcome, like
   * a foreground handler's (lifecycle log, `systemMessage`); its context and rewake block are kept
   * for `take()`.
   */
  start(
    meta: BackgroundStart,
    run: (signal: AbortSignal) => Promise<HandlerOutcome>,
    onOutcome?: (outcome: HandlerOutcome) => void,
  ): void {
    if (this.stopped) return;
    const controller = new AbortController();
    const abort = () => controller.abort();
    this.signal.addEventListener('abort', abort, { once: true });
    if (this.signal.aborted) controller.abort();
    const limiter = this.limiterFor(meta.event, meta.limit);
    const job: Running = {
      controller,
      rewake: meta.rewake,
      settled: limiter
        .run(() => (controller.signal.aborted ? Promise.resolve(undefined) : run(controller.signal)))
        .then((outcome) => {
          // Killed by `stop()` at the end of the run, as documented: not a failure to report.
          if (outcome === undefined || this.stopped) return;
          onOutcome?.(outcome);
          this.keep(meta, outcome);
        })
        .catch(() => undefined) // run() never rejects (RegisteredHandler contract); nothing to keep if it did
        .finally(() => {
          this.signal.removeEventListener('abort', abort);
          this.running.delete(job);
        }),
    };
    this.running.add(job);
  }

  /**
   * Runs background work that is not a hook (a subagent started with `run_in_background`) until it
   * resolves with the text the model must get, or undefined. Like an `asyncRewake` hook, the run
   * waits for it before it ends and the text wakes the model (`takeNotices`). `stop()` aborts its
   * signal. Never throws; a rejection leaves nothing to deliver.
   */
  track(work: (signal: AbortSignal) => Promise<string | undefined>): void {
    if (this.stopped) return;
    const controller = new AbortController();
    const abort = () => controller.abort();
    this.signal.addEventListener('abort', abort, { once: true });
    if (this.signal.aborted) controller.abort();
    const job: Running = {
      controller,
      rewake: true,
      settled: Promise.resolve()
        .then(() => work(controller.signal))
        .then((notice) => {
          if (notice !== undefined && !this.stopped) this.notices.push(notice);
        })
        .catch(() => undefined)
        .finally(() => {
          this.signal.removeEventListener('abort', abort);
          this.running.delete(job);
        }),
    };
    this.running.add(job);
  }

  /** The texts tracked work left since the last call, in completion order. */
  takeNotices(): string[] {
    const taken = this.notices;
    this.notices = [];
    return taken;
  }

  /** The deliveries collected since the last call, oldest first. */
  take(): BackgroundDelivery[] {
    const taken = this.deliveries;
    this.deliveries = [];
    return taken;
  }

  /** True when a delivery waiting in `take()` is an `asyncRewake` block, or a tracked work's notice waits (the model must hear it). */
  get wakeupPending(): boolean {
    return this.notices.length > 0 || this.deliveries.some((delivery) => delivery.block !== undefined);
  }

  /** True while an `asyncRewake` handler or tracked work is still running. */
  get rewakePending(): boolean {
    return [...this.running].some((job) => job.rewake);
  }

  /** Waits until no `asyncRewake` handler is running (each is bounded by its own timeout) or `signal` fires. */
  async waitForRewake(signal: AbortSignal): Promise<void> {
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      while (this.rewakePending && !signal.aborted) {
        await Promise.race([
          Promise.all([...this.running].filter((job) => job.rewake).map((job) => job.settled)),
          aborted,
        ]);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Kills every background handler still running and waits for them to end. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    const jobs = [...this.running];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.settled));
  }

  private keep(meta: BackgroundStart, outcome: HandlerOutcome): void {
    const specific = outcome.output['hookSpecificOutput'] as { additionalContext?: unknown } | undefined;
    const context =
      typeof specific?.additionalContext === 'string' && specific.additionalContext !== ''
        ? specific.additionalContext
        : undefined;
    const output = outcome.output as { decision?: string; reason?: string };
    const block = !meta.rewake
      ? undefined
      : outcome.status === 'blocked'
        ? (outcome.blockMessage ?? '')
        : output.decision === 'block'
          ? (output.reason ?? '')
          : undefined;
    if (context === undefined && block === undefined) return;
    this.deliveries.push({
      event: meta.event,
      origin: meta.origin,
      ...(meta.toolName !== undefined ? { toolName: meta.toolName } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(block !== undefined ? { block } : {}),
    });
  }

  private limiterFor(event: HookEventName, limit: number | undefined): Limiter {
    let limiter = this.limiters.get(event);
    if (limiter === undefined) {
      limiter = new Limiter(limit ?? Infinity);
      this.limiters.set(event, limiter);
    }
    return limiter;
  }
}
