import type { HandlerOutcome } from '../outcome.js';
import { fromLabel } from '../outcome.js';
import {
  BLOCKED_BY_HOOK,
  failClosedMessage,
  mergeCommon,
  type CommonAnswer,
  type CommonMerge,
  type MergeRule,
  type RuleVerdict,
} from './rule.js';

/** The output fields of events that can block with feedback (`decision: "block"` + `reason`). */
export interface BlockAnswer extends CommonAnswer {
  readonly decision?: string | undefined;
  readonly reason?: string | undefined;
}

/** A block with the two texts Claude Code derives from it. */
export interface BlockFeedback {
  /** `[<cmd>]: <stderr>` for exit 2, else the JSON `reason`. */
  readonly reason: string;
  /** For JSON blocks only: `from command: "<cmd>": <reason>`, the tail of the system-message label. */
  readonly labelled?: string;
}

/** Reduction for events that can block with feedback (UserPromptSubmit, PostToolUse, PostToolBatch, Stop, …). */
export interface BlockingMerge extends CommonMerge {
  readonly blocks: readonly BlockFeedback[];
}

/**
 * Exit 2, `decision: "block"` and fail-closed failures each add a block, in merge order.
 * `labelExitBlocks`: the exit-2 block keeps the command label too (PostToolUse, as the reference prints it).
 */
export function mergeBlocks(
  outcomes: readonly HandlerOutcome<BlockAnswer>[],
  labelExitBlocks = false,
): BlockingMerge {
  const blocks: BlockFeedback[] = [];
  for (const outcome of outcomes) {
    const output = outcome.output;
    if (outcome.status === 'blocked') {
      const reason = outcome.blockMessage ?? '';
      blocks.push(
        labelExitBlocks ? { reason, labelled: `${fromLabel(outcome.origin)}: ${reason}` } : { reason },
      );
    } else if (outcome.failClosed) {
      blocks.push({ reason: failClosedMessage(outcome) });
    } else if (output.decision === 'block') {
      const reason = output.reason || BLOCKED_BY_HOOK;
      blocks.push({ reason, labelled: `${fromLabel(outcome.origin)}: ${reason}` });
    }
  }
  return { ...mergeCommon(outcomes), blocks };
}

function blockVerdict(merged: BlockingMerge): RuleVerdict {
  const first = merged.blocks[0];
  if (first === undefined) return { decision: 'none', refuses: false };
  return { decision: 'block', reason: merged.blocks.map((block) => block.reason).join('\n'), refuses: true };
}

/** Events that block with feedback: UserPromptSubmit, PostToolBatch, Stop, SubagentStop, ConfigChange, PreCompact. */
export const blockingRule: MergeRule<BlockAnswer, BlockingMerge> = {
  merge: (outcomes) => mergeBlocks(outcomes),
  refuses: (output) => output.decision === 'block',
  verdict: blockVerdict,
};

/** PostToolUse's output fields as its rule reads them. */
export interface PostToolUseAnswer extends BlockAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly updatedToolOutput?: unknown;
        readonly updatedMCPToolOutput?: unknown;
      }
    | undefined;
}

/**
 * PostToolUse adds output rewriting to the blocking reduction: the last `updatedToolOutput` in merge
 * order wins, and separately the last `updatedMCPToolOutput` (the loop uses it for MCP tools).
 */
export interface PostToolUseMerge extends BlockingMerge {
  readonly updatedToolOutput?: { readonly value: unknown };
  readonly updatedMCPToolOutput?: { readonly value: unknown };
}

export function mergePostToolUseAnswers(
  outcomes: readonly HandlerOutcome<PostToolUseAnswer>[],
): PostToolUseMerge {
  let updated: { value: unknown } | undefined;
  let updatedMcp: { value: unknown } | undefined;
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    if (specific?.updatedToolOutput !== undefined) updated = { value: specific.updatedToolOutput };
    if (specific?.updatedMCPToolOutput !== undefined) updatedMcp = { value: specific.updatedMCPToolOutput };
  }
  return {
    ...mergeBlocks(outcomes, true),
    ...(updated ? { updatedToolOutput: updated } : {}),
    ...(updatedMcp ? { updatedMCPToolOutput: updatedMcp } : {}),
  };
}

/** PostToolUse: blocks (feedback next to the unchanged result) plus output rewrites. */
export const postToolUseRule: MergeRule<PostToolUseAnswer, PostToolUseMerge> = {
  merge: mergePostToolUseAnswers,
  refuses: (output) => output.decision === 'block',
  verdict: blockVerdict,
};

/**
 * PostToolUseFailure: a block cannot undo the failed call; its feedback goes next to the error as
 * system text, the exit-2 label keeping the command twice as after PostToolUse (Claude Code, measured).
 */
export const postToolUseFailureRule: MergeRule<BlockAnswer, BlockingMerge> = {
  merge: (outcomes) => mergeBlocks(outcomes, true),
  refuses: (output) => output.decision === 'block',
  verdict: blockVerdict,
};
