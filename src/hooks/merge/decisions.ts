import type { HandlerOutcome } from '../outcome.js';
import {
  BLOCKED_BY_HOOK,
  failClosedMessage,
  mergeCommon,
  type CommonAnswer,
  type CommonMerge,
  type MergeRule,
} from './rule.js';

/** PreToolUse decisions in merge precedence: deny > defer > ask > allow (Claude Code docs; a deny outranks everything). */
export type PreToolDecision = 'deny' | 'defer' | 'ask' | 'allow';
const DECISION_RANK: Record<PreToolDecision, number> = { deny: 4, defer: 3, ask: 2, allow: 1 };

/** PreToolUse's output fields as its rule reads them (`decision` is the deprecated approve/block form). */
export interface PreToolUseAnswer extends CommonAnswer {
  readonly decision?: 'approve' | 'block' | undefined;
  readonly reason?: string | undefined;
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly permissionDecision?: PreToolDecision | undefined;
        readonly permissionDecisionReason?: string | undefined;
        readonly updatedInput?: Record<string, unknown> | undefined;
      }
    | undefined;
}

/** The reduction of PreToolUse answers. `reason` is the winning hook's reason, raw (`[<cmd>]: <stderr>` for exit 2). */
export interface PreToolUseMerge extends CommonMerge {
  readonly decision?: PreToolDecision;
  readonly reason?: string;
  /** Set when the winning deny is an exit code 2 or a fail-closed failure rather than an answer's `deny`/`block`. */
  readonly deniedByExit?: true;
  /** The rewrite that applies (each `updatedInput` replaces the whole input, as in Claude Code); see `mergePreToolUseAnswers`. */
  readonly updatedInput?: Record<string, unknown>;
}

/**
 * PreToolUse: exit 2, `deny`, legacy `decision: "block"` and fail-closed failures deny; `defer`,
 * `ask`, `allow` and legacy `approve` rank below. The strongest decision wins; among equals the
 * first in merge order gives the reason.
 *
 * `updatedInput` precedence, deterministic whatever order the hooks finish in:
 * 1. a rewrite that comes with a decision weaker than the winning one is dropped (an `allow` +
 *    rewrite does not change what an `ask` hook asks about); a rewrite without a decision, or with
 *    the winning decision, counts (one hook may rewrite while another approves: the reference runs
 *    the rewritten input, pre-precedence);
 * 2. among those, the last in merge order wins: callbacks (which run in a chain, each seeing the
 *    previous rewrite) come before settings hooks, and settings hooks are in settings order, user <
 *    project < local < `--settings` < plugins, so the file with the higher precedence wins.
 */
export function mergePreToolUseAnswers(
  outcomes: readonly HandlerOutcome<PreToolUseAnswer>[],
): PreToolUseMerge {
  let decision: PreToolDecision | undefined;
  let reason: string | undefined;
  let deniedByExit = false;
  const rewrites: { decision: PreToolDecision | undefined; input: Record<string, unknown> }[] = [];
  const consider = (candidate: PreToolDecision, candidateReason: string | undefined, byExit = false) => {
    if (decision === undefined || DECISION_RANK[candidate] > DECISION_RANK[decision]) {
      decision = candidate;
      reason = candidateReason;
      deniedByExit = byExit;
    }
  };
  for (const outcome of outcomes) {
    if (outcome.status === 'blocked') consider('deny', outcome.blockMessage, true);
    else if (outcome.failClosed) consider('deny', failClosedMessage(outcome), true);
    const output = outcome.output;
    const specific = output.hookSpecificOutput;
    // Claude Code reads the legacy `decision` and `permissionDecision` of one answer each on its own
    // (a `block` next to an `allow` still blocks); a deny without its own reason takes `reason`, and
    // `permissionDecisionReason` is the text when both give one.
    const legacy = legacyDecision(output.decision);
    const own = specific?.permissionDecision ?? legacy;
    if (specific?.permissionDecision)
      consider(
        specific.permissionDecision,
        specific.permissionDecision === 'deny'
          ? specific.permissionDecisionReason || output.reason || BLOCKED_BY_HOOK
          : specific.permissionDecisionReason,
      );
    if (legacy !== undefined)
      consider(legacy, legacy === 'deny' ? output.reason || BLOCKED_BY_HOOK : output.reason);
    if (specific?.updatedInput !== undefined) rewrites.push({ decision: own, input: specific.updatedInput });
  }
  const counted = rewrites.filter(
    (rewrite) =>
      rewrite.decision === undefined ||
      decision === undefined ||
      DECISION_RANK[rewrite.decision] >= DECISION_RANK[decision],
  );
  const updatedInput = counted.at(-1)?.input;
  return {
    ...mergeCommon(outcomes),
    ...(decision ? { decision } : {}),
    ...(reason !== undefined ? { reason } : {}),
    ...(deniedByExit ? { deniedByExit: true as const } : {}),
    ...(updatedInput ? { updatedInput } : {}),
  };
}

function legacyDecision(decision: PreToolUseAnswer['decision']): PreToolDecision | undefined {
  return decision === 'block' ? 'deny' : decision === 'approve' ? 'allow' : undefined;
}

/** PreToolUse: the strongest permission decision, and the rewrite that goes with it. */
export const preToolUseRule: MergeRule<PreToolUseAnswer, PreToolUseMerge> = {
  merge: mergePreToolUseAnswers,
  refuses: (output) =>
    output.hookSpecificOutput?.permissionDecision === 'deny' || output.decision === 'block',
  verdict: (merged) => ({
    decision: merged.decision ?? 'none',
    ...(merged.reason !== undefined ? { reason: merged.reason } : {}),
    refuses: merged.decision === 'deny',
  }),
};

/** PermissionRequest's output fields as its rule reads them. */
export interface PermissionRequestAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly decision?:
          | {
              readonly behavior: 'allow';
              readonly updatedInput?: Record<string, unknown> | undefined;
              readonly updatedPermissions?: readonly unknown[] | undefined;
            }
          | {
              readonly behavior: 'deny';
              readonly message?: string | undefined;
              readonly interrupt?: boolean | undefined;
            }
          | { readonly behavior: 'defer'; readonly message?: string | undefined }
          | undefined;
      }
    | undefined;
}

/**
 * PermissionRequest: deny (from any hook, or a fail-closed failure) beats `defer` (hookloop
 * extension: decide later, the call waits; the first defer's message) beats allow; among allows the
 * last `updatedInput` wins.
 */
export interface PermissionRequestMerge extends CommonMerge {
  readonly behavior?: 'allow' | 'deny' | 'defer';
  readonly message?: string;
  readonly interrupt?: boolean;
  readonly updatedInput?: Record<string, unknown>;
  readonly updatedPermissions: readonly unknown[];
}

export function mergePermissionRequestAnswers(
  outcomes: readonly HandlerOutcome<PermissionRequestAnswer>[],
): PermissionRequestMerge {
  let behavior: 'allow' | 'deny' | 'defer' | undefined;
  let message: string | undefined;
  let interrupt = false;
  let updatedInput: Record<string, unknown> | undefined;
  const updatedPermissions: unknown[] = [];
  for (const outcome of outcomes) {
    if (outcome.failClosed) {
      behavior = 'deny';
      message ??= failClosedMessage(outcome);
      continue;
    }
    const decision = outcome.output.hookSpecificOutput?.decision;
    if (!decision) continue;
    if (decision.behavior === 'deny') {
      if (behavior !== 'deny') message = decision.message || 'Permission denied by hook';
      behavior = 'deny';
      interrupt ||= decision.interrupt === true;
    } else if (decision.behavior === 'defer') {
      if (behavior !== 'deny' && behavior !== 'defer') message = decision.message;
      if (behavior !== 'deny') behavior = 'defer';
    } else if (behavior !== 'deny' && behavior !== 'defer') {
      behavior = 'allow';
      if (decision.updatedInput) updatedInput = decision.updatedInput;
      updatedPermissions.push(...(decision.updatedPermissions ?? []));
    }
  }
  return {
    ...mergeCommon(outcomes),
    ...(behavior ? { behavior } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(interrupt ? { interrupt } : {}),
    ...(behavior === 'allow' && updatedInput ? { updatedInput } : {}),
    updatedPermissions: behavior === 'allow' ? updatedPermissions : [],
  };
}

/** PermissionRequest: a hook answers the permission prompt for the user (allow, or deny). */
export const permissionRequestRule: MergeRule<PermissionRequestAnswer, PermissionRequestMerge> = {
  merge: mergePermissionRequestAnswers,
  refuses: (output) => output.hookSpecificOutput?.decision?.behavior === 'deny',
  verdict: (merged) => ({
    decision: merged.behavior ?? 'none',
    ...(merged.message !== undefined ? { reason: merged.message } : {}),
    refuses: merged.behavior === 'deny',
  }),
};

/** PermissionDenied's output fields as its rule reads them. */
export interface PermissionDeniedAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    { readonly additionalContext?: string | undefined; readonly retry?: boolean | undefined } | undefined;
}

/** PermissionDenied: `retry: true` from any hook lets the model know it may try the call again. */
export interface PermissionDeniedMerge extends CommonMerge {
  readonly retry: boolean;
}

/** PermissionDenied: an observer of a refusal that can only say "retry". */
export const permissionDeniedRule: MergeRule<PermissionDeniedAnswer, PermissionDeniedMerge> = {
  merge: (outcomes) => ({
    ...mergeCommon(outcomes),
    retry: outcomes.some((outcome) => outcome.output.hookSpecificOutput?.retry === true),
  }),
  refuses: () => false,
  verdict: () => ({ decision: 'none', refuses: false }),
};
