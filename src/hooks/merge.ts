import type { HandlerOutcome } from './outcome.js';
import { mergeBlocks, mergePostToolUseAnswers, type BlockingMerge, type PostToolUseMerge } from './merge/blocking.js';
import { mergePermissionRequestAnswers, mergePreToolUseAnswers, permissionDeniedRule, type PermissionDeniedMerge, type PermissionRequestMerge, type PreToolUseMerge } from './merge/decisions.js';
import { mergeSessionStartAnswers, type SessionStartMerge } from './merge/answers.js';
import { mergeCommon as mergeCommonAnswers, type CommonMerge } from './merge/rule.js';

/**
 * The merge functions by their old names, for code written before `fire` returned the merged
 * result. Each takes either the outcomes of one event (in merge order) or what `fire`/`fireHook`
 * returned for it, and reduces them with the event table's rule. New code reads the result of
 * `fire` (HookEngine) or `fireHook` (the loop) instead.
 */

export type { BlockFeedback, BlockingMerge, PostToolUseMerge } from './merge/blocking.js';
export type { PermissionDeniedMerge, PermissionRequestMerge, PreToolDecision, PreToolUseMerge } from './merge/decisions.js';
export type { ElicitationChoice, ElicitationMerge, SessionStartMerge } from './merge/answers.js';
export type { CommonMerge, MergeRule, RuleVerdict } from './merge/rule.js';
export { BLOCKED_BY_HOOK, failClosedMessage } from './merge/rule.js';

/** The outcomes of one event, or a fired result that carries them. */
export type Answers = readonly HandlerOutcome[] | { readonly outcomes: readonly HandlerOutcome[] };

/** The outcomes, typed as the rule reads them: the transports validated every output against its event's schema. */
function outcomesOf<A>(answers: Answers): readonly HandlerOutcome<A>[] {
  return ('outcomes' in answers ? answers.outcomes : answers) as readonly HandlerOutcome<A>[];
}

/** @deprecated use the result of `fire` / `fireHook`. The fields every event's result carries. */
export function mergeCommon(answers: Answers): CommonMerge {
  return mergeCommonAnswers(outcomesOf(answers));
}

/** @deprecated use the result of `fire('PreToolUse', …)`. See `mergePreToolUseAnswers`. */
export function mergePreToolUse(answers: Answers): PreToolUseMerge {
  return mergePreToolUseAnswers(outcomesOf(answers));
}

/** @deprecated use the result of `fire('PermissionRequest', …)`. */
export function mergePermissionRequest(answers: Answers): PermissionRequestMerge {
  return mergePermissionRequestAnswers(outcomesOf(answers));
}

/** @deprecated use the result of `fire` for a blocking event. `event` matters for PostToolUse only (its exit-2 blocks keep the command label). */
export function mergeBlocking(answers: Answers, event: string): BlockingMerge {
  return mergeBlocks(outcomesOf(answers), event === 'PostToolUse' || event === 'PostToolUseFailure');
}

/** @deprecated use the result of `fire('PostToolUse', …)`. */
export function mergePostToolUse(answers: Answers): PostToolUseMerge {
  return mergePostToolUseAnswers(outcomesOf(answers));
}

/** @deprecated use the result of `fire('SessionStart', …)`. */
export function mergeSessionStart(answers: Answers): SessionStartMerge {
  return mergeSessionStartAnswers(outcomesOf(answers));
}

/** @deprecated use the result of `fire('PermissionDenied', …)`. */
export function mergePermissionDenied(answers: Answers): PermissionDeniedMerge {
  return permissionDeniedRule.merge(outcomesOf(answers));
}
