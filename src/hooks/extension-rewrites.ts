import { deepFreeze } from '../messages/messages.js';
import type { HookEventName } from './event-names.js';

/**
 * How the rewrites of hookloop's extensions chain through in-process callbacks (which run one
 * after another, each seeing the event as the previous ones left it, see HookEngine): the next
 * callback's payload is the previous one's with the rewritten field replaced.
 * - UserPromptSubmit `updatedPrompt` replaces `prompt`;
 * - PreModelRequest `updatedSystem` / `updatedMessages` / `updatedModel` / `updatedMaxTokens`
 *   replace `system` / `messages` / `model` / `max_tokens`;
 * - PreToolSelection `allowedTools` narrows `tools` (never widens it);
 * - PostModelResponse `updatedText` replaces `response.text`, `dropToolCalls` removes calls from
 *   `response.tool_calls`.
 * Settings hooks all see the payload the callbacks left; their answers are merged afterwards
 * (extension-merge.ts). Returns undefined when `output` rewrites nothing of `event`.
 */
export function applyExtensionRewrite(event: HookEventName, input: Record<string, unknown>, output: Record<string, unknown>): Record<string, unknown> | undefined {
  const specific = output['hookSpecificOutput'] as Record<string, unknown> | undefined;
  if (specific === undefined) return undefined;
  switch (event) {
    case 'UserPromptSubmit':
      return typeof specific['updatedPrompt'] === 'string' ? deepFreeze({ ...input, prompt: specific['updatedPrompt'] }) : undefined;
    default:
      return undefined;
  }
}
