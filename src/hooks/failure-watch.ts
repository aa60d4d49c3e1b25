import { refuses, type HookEventName } from './event-table.js';
import type { HandlerOutcome } from './outcome.js';

/**
 * "Never a silent switch-off of a failing deny hook". By the reference's protocol a
 * guard that exits 1, times out or cannot start lets the call through; hookloop keeps that default
 * (`onFailure: "block"` changes it) but never lets it pass unnoticed: every failure is an outcome the
 * lifecycle log prints, and a handler that already refused something in this session and then
 * fails open gets that said in its error, so the user knows a guard just stopped guarding.
 * hookloop never disables a handler after failures; each event runs it again.
 */
export class FailureWatch {
  /** Handler ids that refused a call, a prompt or a request in this engine's life. */
  private readonly refused = new Set<number>();

  /** Records `outcome` of handler `id` on `event` and returns it, annotated when it is a guard failing open. */
  observe(event: HookEventName, id: number, outcome: HandlerOutcome): HandlerOutcome {
    if (refuses(event, outcome)) {
      this.refused.add(id);
      return outcome;
    }
    const failedOpen =
      (outcome.status === 'failed' || outcome.status === 'timeout') &&
      !outcome.failClosed &&
      outcome.error !== 'aborted';
    if (!failedOpen || !this.refused.has(id)) return outcome;
    return {
      ...outcome,
      error: `${outcome.error ?? outcome.status}; this hook refused earlier in this session and its failure now lets ${event} go through (set "onFailure": "block" to fail closed)`,
    };
  }
}
