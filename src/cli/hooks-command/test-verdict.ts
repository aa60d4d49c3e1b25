import { eventSpec, type HookEventName, type HookResult } from '../../hooks/event-table.js';

/**
 * The merged decision `hooks test` reports: the event's merged result (the one the loop acts on,
 * from the same `fire`), plus the one-word summary its merge rule gives.
 */

/**
 * - `decision`: PreToolUse `deny`/`defer`/`ask`/`allow`, PermissionRequest `deny`/`allow`, `block`
 *   for events that block, an elicitation's action, `none` when no hook decided anything.
 * - `refuses`: the decision blocks or denies (`hooks test` then exits 1).
 * - `merged`: the merged result itself (contexts, updatedInput, blocks, stop, systemMessages, …), without the outcomes.
 */
export interface TestVerdict {
  readonly decision: string;
  readonly reason?: string;
  readonly refuses: boolean;
  readonly merged: Readonly<Record<string, unknown>>;
}

/** Summarizes what `fire` returned for `event` as the event's merge rule says. */
export function verdictOf<E extends HookEventName>(event: E, result: HookResult<E>): TestVerdict {
  const { outcomes: _outcomes, shortCircuited: _shortCircuited, ...merged } = result;
  return { ...eventSpec(event).merge.verdict(result), merged };
}
