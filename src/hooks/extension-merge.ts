import type { HandlerOutcome } from './handler.js';

/**
 * The merge rules of hookloop's extension outputs (docs/hooks.md "Extensions"), next to merge.ts's
 * Claude Code reductions. Outcomes arrive in merge order (callbacks in registration order, then
 * settings order); as for `updatedInput`, the last rewrite in that order wins, so the settings file
 * with the higher precedence wins and the result never depends on which process finished first.
 */

type Specific = Record<string, unknown> | undefined;
const specificOf = (outcome: HandlerOutcome): Specific => outcome.output['hookSpecificOutput'] as Specific;

/** UserPromptSubmit's extension fields, merged. */
export interface PromptRewriteMerge {
  /** The prompt the model receives instead of the typed one: the last `updatedPrompt` in merge order. */
  readonly updatedPrompt?: string;
  /** Some hook asked that a block message leave out the original prompt (Claude Code's `suppressOriginalPrompt`). */
  readonly suppressOriginalPrompt: boolean;
}

/** UserPromptSubmit `updatedPrompt` (last wins) and `suppressOriginalPrompt` (any `true` counts, as in Claude Code). */
export function mergePromptRewrite(outcomes: readonly HandlerOutcome[]): PromptRewriteMerge {
  let updatedPrompt: string | undefined;
  let suppressOriginalPrompt = false;
  for (const outcome of outcomes) {
    const specific = specificOf(outcome);
    if (typeof specific?.['updatedPrompt'] === 'string') updatedPrompt = specific['updatedPrompt'];
    if (specific?.['suppressOriginalPrompt'] === true) suppressOriginalPrompt = true;
  }
  return { ...(updatedPrompt !== undefined ? { updatedPrompt } : {}), suppressOriginalPrompt };
}
