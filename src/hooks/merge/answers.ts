import type { HandlerOutcome } from '../outcome.js';
import { mergeCommon, type CommonAnswer, type CommonMerge, type MergeRule } from './rule.js';

/** SessionStart's output fields as its rule reads them. */
export interface SessionStartAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly initialUserMessage?: string | undefined;
        readonly sessionTitle?: string | undefined;
      }
    | undefined;
}

/** SessionStart adds the first `initialUserMessage` and the last `sessionTitle`. */
export interface SessionStartMerge extends CommonMerge {
  readonly initialUserMessage?: string;
  readonly sessionTitle?: string;
}

export function mergeSessionStartAnswers(
  outcomes: readonly HandlerOutcome<SessionStartAnswer>[],
): SessionStartMerge {
  let initialUserMessage: string | undefined;
  let sessionTitle: string | undefined;
  for (const outcome of outcomes) {
    const specific = outcome.output.hookSpecificOutput;
    initialUserMessage ??= specific?.initialUserMessage;
    if (specific?.sessionTitle !== undefined) sessionTitle = specific.sessionTitle;
  }
  return {
    ...mergeCommon(outcomes),
    ...(initialUserMessage !== undefined ? { initialUserMessage } : {}),
    ...(sessionTitle !== undefined ? { sessionTitle } : {}),
  };
}

/** SessionStart: context for the first prompt, an opening message, a title. Nothing refuses. */
export const sessionStartRule: MergeRule<SessionStartAnswer, SessionStartMerge> = {
  merge: mergeSessionStartAnswers,
  refuses: () => false,
  verdict: () => ({ decision: 'none', refuses: false }),
};

/** What a hook may answer an MCP server's elicitation with. */
export interface ElicitationChoice {
  readonly action: 'accept' | 'decline' | 'cancel';
  /** Only with `accept`. */
  readonly content?: Record<string, unknown>;
}

/** Elicitation's and ElicitationResult's output fields as their rule reads them. */
export interface ElicitationHookAnswer extends CommonAnswer {
  readonly hookSpecificOutput?:
    | {
        readonly additionalContext?: string | undefined;
        readonly action?: ElicitationChoice['action'] | undefined;
        readonly content?: Record<string, unknown> | undefined;
      }
    | undefined;
}

/** Elicitation / ElicitationResult: `answer` is the hooks' answer for the server, undefined when none gave one. */
export interface ElicitationMerge extends CommonMerge {
  readonly answer?: ElicitationChoice;
}

/** `decline` when a hook exited 2, else the last `hookSpecificOutput.action` (with its `content` for accept). */
export function mergeElicitationAnswers(
  outcomes: readonly HandlerOutcome<ElicitationHookAnswer>[],
): ElicitationMerge {
  let answer: ElicitationChoice | undefined;
  if (outcomes.some((outcome) => outcome.status === 'blocked')) answer = { action: 'decline' };
  else {
    for (const outcome of outcomes) {
      const specific = outcome.output.hookSpecificOutput;
      if (specific?.action === undefined) continue;
      answer = {
        action: specific.action,
        ...(specific.action === 'accept' && specific.content ? { content: specific.content } : {}),
      };
    }
  }
  return { ...mergeCommon(outcomes), ...(answer ? { answer } : {}) };
}

/** Elicitation and ElicitationResult: the hooks answer (or replace the answer to) an MCP server's question. */
export const elicitationRule: MergeRule<ElicitationHookAnswer, ElicitationMerge> = {
  merge: mergeElicitationAnswers,
  refuses: () => false,
  // An answer for the server is not a refusal of anything the run does: `hooks test` names it and exits 0.
  verdict: (merged) => ({ decision: merged.answer?.action ?? 'none', refuses: false }),
};
