/**
 * The labels under which hook text reaches the model, exactly as Claude Code 2.1.328 frames them,
 * so a model behaves the same under both agents. Only the loop builds messages from
 * these; a hook supplies text, never messages.
 */

/** `PreToolUse:Bash hook additional context: <text>` for tool events, `Stop hook additional context: <text>` otherwise. */
export function contextLabel(event: string, toolName: string | undefined, text: string): string {
  return `${toolName ? `${event}:${toolName}` : event} hook additional context: ${text}`;
}

/** `SessionStart:startup hook success: <stdout>` / `UserPromptSubmit hook success: <stdout>`: plain stdout that counts as context. */
export function successLabel(
  event: 'SessionStart' | 'UserPromptSubmit',
  source: string | undefined,
  text: string,
): string {
  return `${event === 'SessionStart' ? `SessionStart:${source ?? 'startup'}` : event} hook success: ${text}`;
}

/**
 * The error tool result of a call a PreToolUse hook refused: `PreToolUse:<Tool> hook error: <reason>`,
 * on every tool and for every kind of refusal (a JSON deny, a legacy `decision: "block"`, an exit code
 * 2, a fail-closed failure), as Claude Code 2.1.328 words it (measured: pre-deny-file-tools,
 * pre-block-write-legacy).
 */
export function preToolUseError(toolName: string, reason: string): string {
  return `PreToolUse:${toolName} hook error: ${reason}`;
}

/** `PostToolUse:<Tool> hook blocking error from command: "<cmd>": <reason>` (system text; the result stays); PostToolUseFailure alike. */
export function postToolUseBlock(
  toolName: string,
  labelled: string,
  event: 'PostToolUse' | 'PostToolUseFailure' = 'PostToolUse',
): string {
  return `${event}:${toolName} hook blocking error ${labelled}`;
}

/** The user text a Stop block sends back: `Stop hook feedback:\n<reason>`. */
export function stopFeedback(reason: string): string {
  return `Stop hook feedback:\n${reason}`;
}

/** The system text that accompanies a JSON Stop block: `Stop hook blocking error from command: "<cmd>": <reason>` (SubagentStop: `SubagentStop hook …`). */
export function stopBlockingError(labelled: string, event: 'Stop' | 'SubagentStop' = 'Stop'): string {
  return `${event} hook blocking error ${labelled}`;
}

/** The user text after a refused call's result when a PermissionDenied hook answered `retry: true` (permission-denied-auto-mode). */
export const PERMISSION_DENIED_RETRY = 'The PermissionDenied hook indicated you may retry this tool call.';

/** What an agent hook's subagent is told when it ends its turn without calling StructuredOutput (the reference's tag, hookloop's words). */
export const STRUCTURED_OUTPUT_ENFORCE =
  '[structured-output-enforce] You MUST call the StructuredOutput tool to give your verdict: {"ok": true} when the condition holds, {"ok": false, "reason": "…"} when it does not.';

/**
 * The system text of an `asyncRewake` hook's blocking answer: `<Event>[:<Tool>] hook blocking error
 * from command: "<cmd>": <reason>` (the PostToolUse block format; the reference's wording is not recorded).
 */
export function backgroundBlock(event: string, toolName: string | undefined, labelled: string): string {
  return `${toolName ? `${event}:${toolName}` : event} hook blocking error ${labelled}`;
}

/** Stop `additionalContext`, which the reference sends as user text in a system reminder (SubagentStop's labelled `SubagentStop`). */
export function stopContext(text: string, event: 'Stop' | 'SubagentStop' = 'Stop'): string {
  return `<system-reminder>\n${contextLabel(event, undefined, text)}\n</system-reminder>`;
}

/**
 * How a prompt that had to wait reaches the model mid-turn (system text): the `-p` prompt of a run
 * whose SessionStart hook set `initialUserMessage`. The reference's first line, without its own
 * instructions that follow it.
 */
export function queuedPromptNotice(prompt: string): string {
  return `The user sent a new message while you were working:\n${prompt}`;
}

/** The `result` of a run whose prompt a UserPromptSubmit hook answered with `continue: false`: `Operation stopped by hook[: <stopReason>]`. */
export function promptStoppedResult(stopReason: string | undefined): string {
  return stopReason ? `Operation stopped by hook: ${stopReason}` : 'Operation stopped by hook';
}

/** The `result` of a run whose prompt a UserPromptSubmit hook blocked. */
export function promptBlockedResult(reason: string, prompt: string | undefined): string {
  // `prompt` undefined: a hook answered `suppressOriginalPrompt: true` (Claude Code leaves the line out).
  return `UserPromptSubmit operation blocked by hook:\n${reason}${prompt === undefined ? '' : `\n\nOriginal prompt: ${prompt}`}`;
}

/** The stable error result of a call skipped because a hook ended the run (every tool call gets exactly one result). */
export const HOOK_STOPPED_CONTINUATION =
  'hook_stopped_continuation: a hook ended the run before this tool call ran';

/** The result of a call an agent hook's subagent made after giving its verdict in the same turn (never shown to a model). */
export const SUBAGENT_ANSWERED = 'The call did not run: the subagent already gave its verdict.';

/** The `message` of the Notification hookloop fires before a person is asked to approve a call (Claude Code's wording). */
export function permissionPromptNotice(toolName: string): string {
  return `Claude needs your permission to use ${toolName}`;
}

/**
 * The error result of a call a person declined at the approval prompt, word for word as Claude Code
 * 2.1.328 sends it: the model reads that a person said no (and stops to wait), not the policy's
 * reason for asking, which would make it ask again.
 */
export const USER_REJECTED_RESULT =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** The error of a run that passed `--max-budget-usd`, as Claude Code words it: `Reached maximum budget ($0.5)`. */
export function budgetReachedResult(maxUsd: number): string {
  return `Reached maximum budget ($${maxUsd})`;
}

/** The error result of a call that did not run because the answer asking for it passed the budget (hookloop's words). */
export function budgetStoppedCall(maxUsd: number): string {
  return `The call did not run: the session reached its maximum budget ($${maxUsd}) with the answer that asked for it.`;
}

/** The error result of a call that never ran because the run was aborted. */
export const INTERRUPTED_RESULT = 'Interrupted by user: the run was aborted before this tool call finished';

/**
 * The error result of a call whose tool-use id repeated an earlier call's id in the same message
 * (hookloop extension: the id it got instead is unique, see distinctCallIds).
 */
export function duplicateToolUseIdResult(originalId: string): string {
  return `The call did not run: its tool use id ${JSON.stringify(originalId)} repeats the id of an earlier call in the same message. Tool use ids must be unique; call the tool again if you still need it.`;
}
