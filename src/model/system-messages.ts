/**
 * How a provider sends the loop's mid-conversation `system` messages (hook context: SessionStart,
 * UserPromptSubmit, PreToolUse/PostToolUse/PostToolBatch additionalContext, labelled hook text).
 *
 * - `system-role`: as `role: "system"` messages where they stand, as Claude Code 2.1.328 does
 *   (and the conformance mock records). The Messages API takes them from Claude Opus 4.8 on
 *   (placement rules apply; the Anthropic adapter keeps to them); OpenAI's chat completions take them anywhere.
 * - `user-text`: folded into user text wrapped in `<system-reminder>` tags, as Claude Code
 *   did before mid-conversation system messages existed. Accepted by every model and server.
 * - `auto` (default): `system-role` where the model or server is known to accept it, else `user-text`.
 */
export type SystemMessageSetting = 'auto' | 'system-role' | 'user-text';

/** The names `HOOKLOOP_SYSTEM_MESSAGES` accepts. */
export const SYSTEM_MESSAGE_SETTINGS: readonly SystemMessageSetting[] = ['auto', 'system-role', 'user-text'];

/** Wraps loop-built context the way Claude Code marks text the user did not type. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}
