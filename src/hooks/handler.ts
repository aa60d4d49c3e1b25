import type { HookEventName } from './event-names.js';
import type { HookServices } from './hook-services.js';
import type { HandlerOrigin, HandlerOutcome } from './outcome.js';

export type { HandlerOrigin, HandlerOutcome, RawAnswer } from './outcome.js';
export { bracketLabel, fromLabel } from './outcome.js';

/** A handler the engine can run: a callback or a configured external hook. */
export interface RegisteredHandler {
  readonly id: number;
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  /** A permission-rule condition (`Bash(git *)`), tool events only. */
  readonly condition: string | undefined;
  readonly origin: HandlerOrigin;
  /** Key under which identical external handlers run once per event (Claude Code dedupes by command string). */
  readonly identity: string | undefined;
  /**
   * Background handler (`async: true`): the dispatch does not wait for it; with a tracker
   * (`FireOptions.background`) its context reaches the model on a later request (async-hooks.ts).
   */
  readonly background: boolean;
  /** `asyncRewake: true`: a background handler whose blocking answer (exit 2) wakes the model when it has already stopped. */
  readonly rewake?: boolean;
  /**
   * Runs the handler once. `services` gives model-backed handlers the session's model (see
   * HookServices). `timed` false: nobody reads `durationMs`, a transport may skip its clock
   * readings and report 0 (the callback transport does). Returns the outcome itself when it is
   * known at once (an in-process callback that answered without a promise), so a dispatch of such
   * handlers needs no microtask. Never throws or rejects.
   */
  run(
    input: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    services?: HookServices,
    timed?: boolean,
  ): HandlerOutcome | Promise<HandlerOutcome>;
}
