import type { HandlerOutcome } from '../outcome.js';
import {
  mergeCommon,
  type CommonAnswer,
  type CommonMerge,
  type MergeRule,
  type RuleVerdict,
} from './rule.js';

/**
 * The merge rules of hookloop's model-call events (extensions; docs/hooks.md "Model-call events").
 * Outcomes arrive in merge order (callbacks in registration order, then settings order); as for
 * `updatedInput`, the last rewrite in that order wins, so the settings file with the higher
 * precedence wins and the result never depends on which process finished first. Lists that take
 * something away (`allowedTools`, `dropToolCalls`) compose: no hook gives back what another took.
 * None of these events refuses anything: a `continue: false` stops the run (PreModelRequest) or is
 * reported like on any event.
 */

/** A PreModelRequest `syntheticResponse` as a hook wrote it: the answer given instead of a request (text only). */
export interface SyntheticResponse {
  readonly text?: string | undefined;
  readonly stop_reason?: string | undefined;
}

/** PreModelRequest's output fields as its rule reads them. */
export interface PreModelRequestAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly updatedSystem?: string | undefined;
        readonly updatedMessages?: readonly unknown[] | undefined;
        readonly updatedModel?: string | undefined;
        readonly updatedMaxTokens?: number | undefined;
        readonly syntheticResponse?: SyntheticResponse | undefined;
      }
    | undefined;
}

/** PreModelRequest answers, merged: contexts in merge order (CommonMerge); each rewrite and the synthetic response from the last hook in merge order that gave one. */
export interface PreModelRequestMerge extends CommonMerge {
  readonly updatedSystem?: string;
  readonly updatedMessages?: readonly unknown[];
  readonly updatedModel?: string;
  readonly updatedMaxTokens?: number;
  readonly syntheticResponse?: SyntheticResponse;
}

/** See PreModelRequestMerge. Never throws. */
export function mergePreModelRequestAnswers(
  outcomes: readonly HandlerOutcome<PreModelRequestAnswer>[],
): PreModelRequestMerge {
  const merged: { -readonly [K in keyof PreModelRequestMerge]?: PreModelRequestMerge[K] } = {};
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    if (specific === undefined) continue;
    if (specific.updatedSystem !== undefined) merged.updatedSystem = specific.updatedSystem;
    if (specific.updatedMessages !== undefined) merged.updatedMessages = specific.updatedMessages;
    if (specific.updatedModel !== undefined) merged.updatedModel = specific.updatedModel;
    if (specific.updatedMaxTokens !== undefined) merged.updatedMaxTokens = specific.updatedMaxTokens;
    if (specific.syntheticResponse !== undefined) merged.syntheticResponse = specific.syntheticResponse;
  }
  return { ...mergeCommon(outcomes), ...merged };
}

/** `answer` (a synthetic response: no request), `rewrite` (the request changed), else `none`. */
function preModelRequestVerdict(merged: PreModelRequestMerge): RuleVerdict {
  if (merged.syntheticResponse !== undefined) return { decision: 'answer', refuses: false };
  const rewrites =
    merged.updatedSystem !== undefined ||
    merged.updatedMessages !== undefined ||
    merged.updatedModel !== undefined ||
    merged.updatedMaxTokens !== undefined ||
    merged.contexts.length > 0;
  return { decision: rewrites ? 'rewrite' : 'none', refuses: false };
}

/** PreModelRequest (hookloop extension): see PreModelRequestMerge. Nothing refuses. */
export const preModelRequestRule: MergeRule<PreModelRequestAnswer, PreModelRequestMerge> = {
  merge: mergePreModelRequestAnswers,
  refuses: () => false,
  verdict: preModelRequestVerdict,
};

/** A PreToolSelection `toolChoice`, as the Anthropic API names it. */
export type ToolChoiceAnswer =
  { readonly type: 'auto' | 'any' | 'none' } | { readonly type: 'tool'; readonly name: string };

/** PreToolSelection's output fields as its rule reads them. */
export interface PreToolSelectionAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: undefined;
        readonly allowedTools?: readonly string[] | undefined;
        readonly toolChoice?: ToolChoiceAnswer | undefined;
      }
    | undefined;
}

/**
 * PreToolSelection answers, merged: `allowedTools` is the tools every hook's list names, in the
 * first list's order (narrowing composes, no hook widens); undefined when no hook narrowed. The last `toolChoice` wins.
 */
export interface PreToolSelectionMerge extends CommonMerge {
  readonly allowedTools?: readonly string[];
  readonly toolChoice?: ToolChoiceAnswer;
}

/** See PreToolSelectionMerge. Never throws. */
export function mergePreToolSelectionAnswers(
  outcomes: readonly HandlerOutcome<PreToolSelectionAnswer>[],
): PreToolSelectionMerge {
  let allowed: string[] | undefined;
  let toolChoice: ToolChoiceAnswer | undefined;
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    if (specific?.allowedTools !== undefined) {
      const names = new Set(specific.allowedTools);
      allowed = allowed === undefined ? [...names] : allowed.filter((name) => names.has(name));
    }
    if (specific?.toolChoice !== undefined) toolChoice = specific.toolChoice;
  }
  return {
    ...mergeCommon(outcomes),
    ...(allowed !== undefined ? { allowedTools: allowed } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
  };
}

/** PreToolSelection (hookloop extension): `narrow` when a hook narrowed the tools, `choose` when it only set toolChoice. Nothing refuses. */
export const preToolSelectionRule: MergeRule<PreToolSelectionAnswer, PreToolSelectionMerge> = {
  merge: mergePreToolSelectionAnswers,
  refuses: () => false,
  verdict: (merged) => ({
    decision:
      merged.allowedTools !== undefined ? 'narrow' : merged.toolChoice !== undefined ? 'choose' : 'none',
    refuses: false,
  }),
};

/** PostModelResponse's output fields as its rule reads them. */
export interface PostModelResponseAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: undefined;
        readonly updatedText?: string | undefined;
        readonly dropToolCalls?: readonly string[] | undefined;
      }
    | undefined;
}

/** PostModelResponse answers, merged: the last `updatedText`, and every call id any hook dropped (in merge order, once each). */
export interface PostModelResponseMerge extends CommonMerge {
  readonly updatedText?: string;
  readonly dropToolCalls: readonly string[];
}

/** See PostModelResponseMerge. Never throws. */
export function mergePostModelResponseAnswers(
  outcomes: readonly HandlerOutcome<PostModelResponseAnswer>[],
): PostModelResponseMerge {
  let updatedText: string | undefined;
  const dropped = new Set<string>();
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    if (specific?.updatedText !== undefined) updatedText = specific.updatedText;
    for (const id of specific?.dropToolCalls ?? []) dropped.add(id);
  }
  return {
    ...mergeCommon(outcomes),
    ...(updatedText !== undefined ? { updatedText } : {}),
    dropToolCalls: [...dropped],
  };
}

/** PostModelResponse (hookloop extension): `rewrite` when the text changed or calls were dropped. Nothing refuses. */
export const postModelResponseRule: MergeRule<PostModelResponseAnswer, PostModelResponseMerge> = {
  merge: mergePostModelResponseAnswers,
  refuses: () => false,
  verdict: (merged) => ({
    decision: merged.updatedText !== undefined || merged.dropToolCalls.length > 0 ? 'rewrite' : 'none',
    refuses: false,
  }),
};
