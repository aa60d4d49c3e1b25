import type { HandlerOutcome } from '../outcome.js';

/**
 * The shape every merge rule shares: how the answers of several hooks to one event combine into
 * one typed result (the event table names one rule per event, see event-table.ts). Outcomes arrive
 * in merge order (callbacks in registration order, then settings order), so every result is
 * deterministic, whatever order the processes finished in.
 *
 * Gates fail closed (a `failClosed` outcome blocks); observers fail open and their failures are
 * only reported. Texts meant for the model are returned raw; the loop adds Claude Code's labels.
 */

/** The output fields every event accepts, as the rules read them. */
export interface CommonAnswer {
  readonly continue?: boolean | undefined;
  readonly stopReason?: string | undefined;
  readonly systemMessage?: string | undefined;
  readonly hookSpecificOutput?: { readonly additionalContext?: string | undefined } | undefined;
}

/** What every event's merged result carries: `continue: false`, context texts, and user-facing notices. */
export interface CommonMerge {
  /** Set when some hook answered `continue: false`; `stopReason` is for the user only. */
  readonly stop?: { readonly reason: string | undefined };
  /** `additionalContext` texts, in merge order. */
  readonly contexts: readonly string[];
  /** Plain stdout of successful command hooks (context for SessionStart/UserPromptSubmit only). */
  readonly plainTexts: readonly string[];
  /** `systemMessage`s: shown to the user on stderr, never to the model. */
  readonly systemMessages: readonly string[];
}

/**
 * The one-word summary `hookloop hooks test` prints: `decision` (`deny`, `allow`, `block`, …, or
 * `none`), the reason that goes with it, and whether it refuses what the event is about.
 */
export interface RuleVerdict {
  readonly decision: string;
  readonly reason?: string;
  readonly refuses: boolean;
}

/**
 * One merge rule. `A` is the output shape the rule reads (an event's output type must be
 * assignable to it, which the event table checks at compile time); `M` the merged result.
 * - `merge`: the reduction, in merge order. Never throws.
 * - `refuses`: true when this one answer refuses what the event is about (a deny, a block); the
 *   engine ends a gate's callback chain on it, cancels siblings where the event says so, and
 *   FailureWatch remembers the handler as a guard. A blocking exit (`status: "blocked"`) always refuses.
 * - `verdict`: the summary `hooks test` prints.
 */
export interface MergeRule<A, M extends CommonMerge> {
  readonly merge: (outcomes: readonly HandlerOutcome<A>[]) => M;
  readonly refuses: (output: A) => boolean;
  readonly verdict: (merged: M) => RuleVerdict;
}

/** The fields shared by every event's reduction. */
export function mergeCommon(outcomes: readonly HandlerOutcome<CommonAnswer>[]): CommonMerge {
  let stop: CommonMerge['stop'];
  const contexts: string[] = [];
  const plainTexts: string[] = [];
  const systemMessages: string[] = [];
  for (const outcome of outcomes) {
    const output = outcome.output;
    if (output.continue === false && stop === undefined) stop = { reason: output.stopReason };
    const context = output.hookSpecificOutput?.additionalContext;
    if (typeof context === 'string' && context.length > 0) contexts.push(context);
    if (outcome.plainText !== undefined) plainTexts.push(outcome.plainText);
    if (typeof output.systemMessage === 'string') systemMessages.push(output.systemMessage);
  }
  return { ...(stop ? { stop } : {}), contexts, plainTexts, systemMessages };
}

/**
 * `[<cmd>]: failed; blocking because onFailure is "block"\n<stderr>`, Claude Code's text for a
 * fail-closed hook (`…: timed out; …` after a timeout); for a hook that did not exit with a code
 * (a failed start, an HTTP error, a callback that threw) the detail is hookloop's `error` text.
 */
export function failClosedMessage(outcome: HandlerOutcome<unknown>): string {
  const why =
    outcome.origin.transport === 'callback' ? 'in-process gate hooks fail closed' : 'onFailure is "block"';
  const what = outcome.status === 'timeout' ? 'timed out' : 'failed';
  // A command that exited with a code: Claude Code puts its stderr there as it is, without our `exit code N:` prefix.
  const exited =
    outcome.raw?.exitCode !== undefined && outcome.raw.exitCode !== null && outcome.status === 'failed';
  const detail = exited ? (outcome.raw?.stderr ?? '') : (outcome.error ?? '');
  return `[${outcome.origin.text}]: ${what}; blocking because ${why}${detail ? `\n${detail}` : ''}`;
}

/** Observers (Notification, SessionEnd, PostCompact, …): only the common fields; nothing refuses. */
/** Claude Code's reason for a `decision: "block"` or `permissionDecision: "deny"` that gives none. */
export const BLOCKED_BY_HOOK = 'Blocked by hook';

export const observerRule: MergeRule<CommonAnswer, CommonMerge> = {
  merge: mergeCommon,
  refuses: () => false,
  verdict: () => ({ decision: 'none', refuses: false }),
};
