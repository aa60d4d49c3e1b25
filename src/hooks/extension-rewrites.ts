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
    case 'PreModelRequest': {
      const next: Record<string, unknown> = { ...input };
      if (typeof specific['updatedSystem'] === 'string') next['system'] = specific['updatedSystem'];
      if (Array.isArray(specific['updatedMessages'])) next['messages'] = structuredClone(specific['updatedMessages']);
      if (typeof specific['updatedModel'] === 'string') next['model'] = specific['updatedModel'];
      if (typeof specific['updatedMaxTokens'] === 'number') next['max_tokens'] = specific['updatedMaxTokens'];
      return changed(input, next);
    }
    case 'PreToolSelection': {
      const allowed = specific['allowedTools'];
      if (!Array.isArray(allowed)) return undefined;
      const tools = (input['tools'] as readonly { name: string }[]).filter((tool) => allowed.includes(tool.name));
      return deepFreeze({ ...input, tools });
    }
    case 'PostModelResponse': {
      const response = input['response'] as { text: string; tool_calls: readonly { id: string }[]; stop_reason: string };
      const drop = Array.isArray(specific['dropToolCalls']) ? (specific['dropToolCalls'] as unknown[]) : [];
      const text = typeof specific['updatedText'] === 'string' ? specific['updatedText'] : response.text;
      if (drop.length === 0 && text === response.text) return undefined;
      return deepFreeze({ ...input, response: { ...response, text, tool_calls: response.tool_calls.filter((call) => !drop.includes(call.id)) } });
    }
    default:
      return undefined;
  }
}

function changed(input: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(next).some((key) => next[key] !== input[key]) ? deepFreeze(next) : undefined;
}
