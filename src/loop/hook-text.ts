/**
 * The labels under which hook text reaches the model, exactly as Claude Code 2.1.328 frames them
 * (spec §5), so a model behaves the same under both agents. Only the loop builds messages from
 * these; a hook supplies text, never messages.
 */

/** `PreToolUse:Bash hook additional context: <text>` for tool events, `Stop hook additional context: <text>` otherwise. */
export function contextLabel(event: string, toolName: string | undefined, text: string): string {
  return `${toolName ? `${event}:${toolName}` : event} hook additional context: ${text}`;
}

/** `SessionStart:startup hook success: <stdout>` / `UserPromptSubmit hook success: <stdout>`: plain stdout that counts as context. */
export function successLabel(event: 'SessionStart' | 'UserPromptSubmit', source: string | undefined, text: string): string {
  return `${event === 'SessionStart' ? `SessionStart:${source ?? 'startup'}` : event} hook success: ${text}`;
}

/** The error tool result of a call a PreToolUse hook refused: `PreToolUse:<Tool> hook error: <reason>`. */
export function preToolUseError(toolName: string, reason: string): string {
  return `PreToolUse:${toolName} hook error: ${reason}`;
}

/** `PostToolUse:<Tool> hook blocking error from command: "<cmd>": <reason>` (system text; the result stays). */
export function postToolUseBlock(toolName: string, labelled: string): string {
  return `PostToolUse:${toolName} hook blocking error ${labelled}`;
}

/** The user text a Stop block sends back: `Stop hook feedback:\n<reason>`. */
export function stopFeedback(reason: string): string {
  return `Stop hook feedback:\n${reason}`;
}

/** The system text that accompanies a JSON Stop block: `Stop hook blocking error from command: "<cmd>": <reason>`. */
export function stopBlockingError(labelled: string): string {
  return `Stop hook blocking error ${labelled}`;
}

/** Stop `additionalContext`, which the reference sends as user text in a system reminder. */
export function stopContext(text: string): string {
  return `<system-reminder>\n${contextLabel('Stop', undefined, text)}\n</system-reminder>`;
}

/**
 * How a prompt that had to wait reaches the model mid-turn (system text): the `-p` prompt of a run
 * whose SessionStart hook set `initialUserMessage`. The reference's first line, without its own
 * instructions that follow it.
 */
export function queuedPromptNotice(prompt: string): string {
  return `The user sent a new message while you were working:\n${prompt}`;
}

/** The `result` of a run whose prompt a UserPromptSubmit hook blocked. */
export function promptBlockedResult(reason: string, prompt: string): string {
  return `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${prompt}`;
}

/** The stable error result of a call skipped because a hook ended the run (DESIGN invariant 1). */
export const HOOK_STOPPED_CONTINUATION = 'hook_stopped_continuation: a hook ended the run before this tool call ran';

/** The error result of a call that never ran because the run was aborted. */
export const INTERRUPTED_RESULT = 'Interrupted by user: the run was aborted before this tool call finished';
