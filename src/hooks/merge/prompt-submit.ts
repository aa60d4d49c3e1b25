import type { HandlerOutcome } from '../outcome.js';
import { blockingRule, mergeBlocks, type BlockAnswer, type BlockingMerge } from './blocking.js';
import type { MergeRule } from './rule.js';

/** UserPromptSubmit's output fields as its rule reads them. */
export interface PromptSubmitAnswer extends BlockAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly updatedPrompt?: string | undefined;
        readonly suppressOriginalPrompt?: boolean | undefined;
      }
    | undefined;
}

/**
 * UserPromptSubmit: the blocking reduction, plus
 * - `updatedPrompt` (hookloop extension): the prompt the model receives instead of the typed one,
 *   the last one in merge order (as `updatedInput`: the settings file with the higher precedence
 *   wins, whichever process finished first). A block from any hook still wins over it.
 * - `suppressOriginalPrompt` (Claude Code's): some hook asked that the block message leave out
 *   `Original prompt: …`; any `true` counts.
 */
export interface PromptSubmitMerge extends BlockingMerge {
  readonly updatedPrompt?: string;
  readonly suppressOriginalPrompt: boolean;
}

/** See PromptSubmitMerge. Never throws. */
export function mergePromptSubmitAnswers(
  outcomes: readonly HandlerOutcome<PromptSubmitAnswer>[],
): PromptSubmitMerge {
  let updatedPrompt: string | undefined;
  let suppressOriginalPrompt = false;
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    if (specific?.updatedPrompt !== undefined) updatedPrompt = specific.updatedPrompt;
    if (specific?.suppressOriginalPrompt === true) suppressOriginalPrompt = true;
  }
  return {
    ...mergeBlocks(outcomes),
    ...(updatedPrompt !== undefined ? { updatedPrompt } : {}),
    suppressOriginalPrompt,
  };
}

/** UserPromptSubmit: `block` (refuses), else `rewrite` when a hook rewrote the prompt, else `none`. */
export const promptSubmitRule: MergeRule<PromptSubmitAnswer, PromptSubmitMerge> = {
  merge: mergePromptSubmitAnswers,
  refuses: blockingRule.refuses,
  verdict: (merged) => {
    const verdict = blockingRule.verdict(merged);
    return verdict.refuses || merged.updatedPrompt === undefined
      ? verdict
      : { decision: 'rewrite', refuses: false };
  },
};
