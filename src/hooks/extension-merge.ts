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

/** A PreModelRequest `syntheticResponse` as a hook wrote it. */
export interface SyntheticResponse {
  readonly text?: string;
  readonly tool_calls?: readonly { readonly name: string; readonly input: Record<string, unknown> }[];
  readonly stop_reason?: string;
}

/** PreModelRequest answers, merged: contexts in merge order; each rewrite and the synthetic response from the last hook in merge order that gave one. */
export interface PreModelRequestMerge {
  readonly contexts: readonly string[];
  readonly stop: boolean;
  readonly updatedSystem?: string;
  readonly updatedMessages?: readonly unknown[];
  readonly updatedModel?: string;
  readonly updatedMaxTokens?: number;
  readonly syntheticResponse?: SyntheticResponse;
}

export function mergePreModelRequest(outcomes: readonly HandlerOutcome[]): PreModelRequestMerge {
  const merged: { -readonly [K in keyof PreModelRequestMerge]: PreModelRequestMerge[K] } = { contexts: [], stop: false };
  const contexts: string[] = [];
  for (const outcome of outcomes) {
    if ((outcome.output as { continue?: unknown }).continue === false) merged.stop = true;
    const specific = specificOf(outcome);
    if (specific === undefined) continue;
    if (typeof specific['additionalContext'] === 'string' && specific['additionalContext'] !== '') contexts.push(specific['additionalContext']);
    if (typeof specific['updatedSystem'] === 'string') merged.updatedSystem = specific['updatedSystem'];
    if (Array.isArray(specific['updatedMessages'])) merged.updatedMessages = specific['updatedMessages'];
    if (typeof specific['updatedModel'] === 'string') merged.updatedModel = specific['updatedModel'];
    if (typeof specific['updatedMaxTokens'] === 'number') merged.updatedMaxTokens = specific['updatedMaxTokens'];
    if (specific['syntheticResponse'] !== undefined) merged.syntheticResponse = specific['syntheticResponse'] as SyntheticResponse;
  }
  return { ...merged, contexts };
}

/** PreToolSelection answers, merged: the tools every `allowedTools` list names (narrowing composes, no hook widens), and the last `toolChoice`. */
export interface PreToolSelectionMerge {
  /** Undefined when no hook narrowed the tools. */
  readonly allowedTools?: ReadonlySet<string>;
  readonly toolChoice?: { readonly type: 'auto' | 'any' | 'none' } | { readonly type: 'tool'; readonly name: string };
}

export function mergePreToolSelection(outcomes: readonly HandlerOutcome[]): PreToolSelectionMerge {
  let allowed: Set<string> | undefined;
  let toolChoice: PreToolSelectionMerge['toolChoice'];
  for (const outcome of outcomes) {
    const specific = specificOf(outcome);
    const list = specific?.['allowedTools'];
    if (Array.isArray(list)) {
      const names = new Set(list.filter((name): name is string => typeof name === 'string'));
      allowed = allowed === undefined ? names : new Set([...allowed].filter((name) => names.has(name)));
    }
    if (specific?.['toolChoice'] !== undefined) toolChoice = specific['toolChoice'] as PreToolSelectionMerge['toolChoice'];
  }
  return { ...(allowed !== undefined ? { allowedTools: allowed } : {}), ...(toolChoice !== undefined ? { toolChoice } : {}) };
}

/** PostModelResponse answers, merged: the last `updatedText`, and every id any hook dropped. */
export interface PostModelResponseMerge {
  readonly updatedText?: string;
  readonly dropToolCalls: ReadonlySet<string>;
}

export function mergePostModelResponse(outcomes: readonly HandlerOutcome[]): PostModelResponseMerge {
  let updatedText: string | undefined;
  const dropped = new Set<string>();
  for (const outcome of outcomes) {
    const specific = specificOf(outcome);
    if (typeof specific?.['updatedText'] === 'string') updatedText = specific['updatedText'];
    const ids = specific?.['dropToolCalls'];
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') dropped.add(id);
  }
  return { ...(updatedText !== undefined ? { updatedText } : {}), dropToolCalls: dropped };
}
