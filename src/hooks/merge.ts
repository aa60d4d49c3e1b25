import type { HandlerOutcome } from './handler.js';
import { fromLabel } from './handler.js';

/**
 * How the answers of several hooks to one event combine: one reduction per event, all in this file.
 * Outcomes arrive in merge order (callbacks in registration order, then settings order), so every
 * result here is deterministic, whatever order the processes finished in.
 *
 * Gates fail closed (a `failClosed` outcome blocks); observers fail open and their failures are
 * only reported. Texts meant for the model are returned raw; the loop adds Claude Code's labels.
 */

/** What every event can carry: `continue: false`, context texts, and user-facing notices. */
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

type Specific = Record<string, unknown> | undefined;
const specificOf = (outcome: HandlerOutcome): Specific => outcome.output['hookSpecificOutput'] as Specific;

/** The fields shared by every event's reduction. */
export function mergeCommon(outcomes: readonly HandlerOutcome[]): CommonMerge {
  let stop: CommonMerge['stop'];
  const contexts: string[] = [];
  const plainTexts: string[] = [];
  const systemMessages: string[] = [];
  for (const outcome of outcomes) {
    const output = outcome.output as { continue?: boolean; stopReason?: string; systemMessage?: string };
    if (output.continue === false && stop === undefined) stop = { reason: output.stopReason };
    const context = specificOf(outcome)?.['additionalContext'];
    if (typeof context === 'string' && context.length > 0) contexts.push(context);
    if (outcome.plainText !== undefined) plainTexts.push(outcome.plainText);
    if (typeof output.systemMessage === 'string') systemMessages.push(output.systemMessage);
  }
  return { ...(stop ? { stop } : {}), contexts, plainTexts, systemMessages };
}

/** PreToolUse decisions in merge precedence: deny > defer > ask > allow (Claude Code docs; DESIGN invariant 2). */
export type PreToolDecision = 'deny' | 'defer' | 'ask' | 'allow';
const DECISION_RANK: Record<PreToolDecision, number> = { deny: 4, defer: 3, ask: 2, allow: 1 };

/** The reduction of PreToolUse answers. `reason` is the winning hook's reason, raw (`[<cmd>]: <stderr>` for exit 2). */
export interface PreToolUseMerge extends CommonMerge {
  readonly decision?: PreToolDecision;
  readonly reason?: string;
  /** The rewrite that applies (each `updatedInput` replaces the whole input, as in Claude Code); see `mergePreToolUse`. */
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
export function mergePreToolUse(outcomes: readonly HandlerOutcome[]): PreToolUseMerge {
  let decision: PreToolDecision | undefined;
  let reason: string | undefined;
  const rewrites: { decision: PreToolDecision | undefined; input: Record<string, unknown> }[] = [];
  const consider = (candidate: PreToolDecision, candidateReason: string | undefined) => {
    if (decision === undefined || DECISION_RANK[candidate] > DECISION_RANK[decision]) {
      decision = candidate;
      reason = candidateReason;
    }
  };
  for (const outcome of outcomes) {
    if (outcome.status === 'blocked') consider('deny', outcome.blockMessage);
    else if (outcome.failClosed) consider('deny', failClosedMessage(outcome, 'PreToolUse'));
    const output = outcome.output as { decision?: string; reason?: string };
    const specific = specificOf(outcome) as { permissionDecision?: PreToolDecision; permissionDecisionReason?: string; updatedInput?: Record<string, unknown> } | undefined;
    const own = specific?.permissionDecision ?? (output.decision === 'block' ? 'deny' : output.decision === 'approve' ? 'allow' : undefined);
    if (specific?.permissionDecision) consider(specific.permissionDecision, specific.permissionDecisionReason);
    else if (own !== undefined) consider(own, output.reason);
    if (specific?.updatedInput !== undefined) rewrites.push({ decision: own, input: specific.updatedInput });
  }
  const counted = rewrites.filter((rewrite) => rewrite.decision === undefined || decision === undefined || DECISION_RANK[rewrite.decision] >= DECISION_RANK[decision]);
  const updatedInput = counted.at(-1)?.input;
  return { ...mergeCommon(outcomes), ...(decision ? { decision } : {}), ...(reason !== undefined ? { reason } : {}), ...(updatedInput ? { updatedInput } : {}) };
}

/**
 * `[<cmd>]: failed; blocking because onFailure is "block"\n<stderr>`, Claude Code's text for a
 * fail-closed hook (`…: timed out; …` after a timeout); for a hook that did not exit with a code
 * (a failed start, an HTTP error, a callback that threw) the detail is hookloop's `error` text.
 */
export function failClosedMessage(outcome: HandlerOutcome, _event: string): string {
  const why = outcome.origin.transport === 'callback' ? 'in-process gate hooks fail closed' : 'onFailure is "block"';
  const what = outcome.status === 'timeout' ? 'timed out' : 'failed';
  // A command that exited with a code: Claude Code puts its stderr there as it is, without our `exit code N:` prefix.
  const exited = outcome.raw?.exitCode !== undefined && outcome.raw.exitCode !== null && outcome.status === 'failed';
  const detail = exited ? (outcome.raw?.stderr ?? '') : (outcome.error ?? '');
  return `[${outcome.origin.text}]: ${what}; blocking because ${why}${detail ? `\n${detail}` : ''}`;
}

/** PermissionRequest: deny (from any hook, or a fail-closed failure) beats allow; among allows the last `updatedInput` wins. */
export interface PermissionRequestMerge extends CommonMerge {
  /** `defer` (hookloop extension): leave the decision for later; the call waits (deny > defer > allow). */
  readonly behavior?: 'allow' | 'deny' | 'defer';
  readonly message?: string;
  readonly interrupt?: boolean;
  readonly updatedInput?: Record<string, unknown>;
  readonly updatedPermissions: readonly unknown[];
}

export function mergePermissionRequest(outcomes: readonly HandlerOutcome[]): PermissionRequestMerge {
  let behavior: 'allow' | 'deny' | 'defer' | undefined;
  let message: string | undefined;
  let interrupt = false;
  let updatedInput: Record<string, unknown> | undefined;
  const updatedPermissions: unknown[] = [];
  for (const outcome of outcomes) {
    if (outcome.failClosed) {
      behavior = 'deny';
      message ??= failClosedMessage(outcome, 'PermissionRequest');
      continue;
    }
    const decision = specificOf(outcome)?.['decision'] as
      | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
      | { behavior: 'deny'; message?: string; interrupt?: boolean }
      | { behavior: 'defer'; message?: string }
      | undefined;
    if (!decision) continue;
    if (decision.behavior === 'defer') {
      if (behavior !== 'deny' && behavior !== 'defer') message = decision.message;
      if (behavior !== 'deny') behavior = 'defer';
    } else if (decision.behavior === 'deny') {
      if (behavior !== 'deny') message = decision.message;
      behavior = 'deny';
      interrupt ||= decision.interrupt === true;
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

/** A block with the two texts Claude Code derives from it. */
export interface BlockFeedback {
  /** `[<cmd>]: <stderr>` for exit 2, else the JSON `reason`. */
  readonly reason: string;
  /** For JSON blocks only: `from command: "<cmd>": <reason>`, the tail of the system-message label. */
  readonly labelled?: string;
}

/** Reduction for events that can block with feedback (UserPromptSubmit, PostToolUse, PostToolBatch, Stop). */
export interface BlockingMerge extends CommonMerge {
  readonly blocks: readonly BlockFeedback[];
}

/**
 * Exit 2, `decision: "block"` and fail-closed failures each add a block, in merge order. For
 * PostToolUse the exit-2 label keeps the command twice, as the reference prints it.
 */
export function mergeBlocking(outcomes: readonly HandlerOutcome[], event: string): BlockingMerge {
  const blocks: BlockFeedback[] = [];
  for (const outcome of outcomes) {
    const output = outcome.output as { decision?: string; reason?: string };
    if (outcome.status === 'blocked') {
      const reason = outcome.blockMessage ?? '';
      blocks.push(event === 'PostToolUse' ? { reason, labelled: `${fromLabel(outcome.origin)}: ${reason}` } : { reason });
    } else if (outcome.failClosed) {
      blocks.push({ reason: failClosedMessage(outcome, event) });
    } else if (output.decision === 'block') {
      const reason = output.reason ?? '';
      blocks.push({ reason, labelled: `${fromLabel(outcome.origin)}: ${reason}` });
    }
  }
  return { ...mergeCommon(outcomes), blocks };
}

/**
 * PostToolUse adds output rewriting to the blocking reduction: the last `updatedToolOutput` in merge
 * order wins, and separately the last `updatedMCPToolOutput` (the loop uses it for MCP tools).
 */
export interface PostToolUseMerge extends BlockingMerge {
  readonly updatedToolOutput?: { readonly value: unknown };
  readonly updatedMCPToolOutput?: { readonly value: unknown };
}

export function mergePostToolUse(outcomes: readonly HandlerOutcome[]): PostToolUseMerge {
  let updated: { value: unknown } | undefined;
  let updatedMcp: { value: unknown } | undefined;
  for (const outcome of outcomes) {
    const specific = specificOf(outcome);
    if (specific?.['updatedToolOutput'] !== undefined) updated = { value: specific['updatedToolOutput'] };
    if (specific?.['updatedMCPToolOutput'] !== undefined) updatedMcp = { value: specific['updatedMCPToolOutput'] };
  }
  return { ...mergeBlocking(outcomes, 'PostToolUse'), ...(updated ? { updatedToolOutput: updated } : {}), ...(updatedMcp ? { updatedMCPToolOutput: updatedMcp } : {}) };
}

/** SessionStart adds the first `initialUserMessage` and the last `sessionTitle`. */
export interface SessionStartMerge extends CommonMerge {
  readonly initialUserMessage?: string;
  readonly sessionTitle?: string;
}

export function mergeSessionStart(outcomes: readonly HandlerOutcome[]): SessionStartMerge {
  let initialUserMessage: string | undefined;
  let sessionTitle: string | undefined;
  for (const outcome of outcomes) {
    const specific = specificOf(outcome) as { initialUserMessage?: string; sessionTitle?: string } | undefined;
    initialUserMessage ??= specific?.initialUserMessage;
    if (specific?.sessionTitle !== undefined) sessionTitle = specific.sessionTitle;
  }
  return { ...mergeCommon(outcomes), ...(initialUserMessage !== undefined ? { initialUserMessage } : {}), ...(sessionTitle !== undefined ? { sessionTitle } : {}) };
}

/** PermissionDenied: `retry: true` from any hook lets the model know it may try the call again. */
export interface PermissionDeniedMerge extends CommonMerge {
  readonly retry: boolean;
}

export function mergePermissionDenied(outcomes: readonly HandlerOutcome[]): PermissionDeniedMerge {
  const retry = outcomes.some((outcome) => specificOf(outcome)?.['retry'] === true);
  return { ...mergeCommon(outcomes), retry };
}
