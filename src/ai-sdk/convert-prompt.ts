import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { Message, ToolCall } from '../messages/messages.js';
import { systemReminder } from '../model/system-messages.js';
import type { AiSdkPrompt } from './spec-types.js';

type PromptMessage = AiSdkPrompt[number];
type AssistantPart = Extract<PromptMessage, { role: 'assistant' }>['content'][number];

/**
 * Converts the system prompt and the conversation to an AI SDK prompt: the system prompt first
 * (when not empty) as a `system` message; user text as one text part; assistant text and
 * `tool-call` parts (input as a JSON value); one `tool` message per result, `text` or
 * `error-text` output (tool results travel as their text; image blocks are described in it). Loop
 * context goes where it stands as a `system` message (`system-role`), or (`user-text`) as
 * `<system-reminder>` text appended to the preceding user text, else a new user message: several
 * providers (Gemini among them) take system messages only at the start.
 *
 * `callOptions` gives back, per tool call id, the provider metadata the call came with, as the
 * tool-call part's `providerOptions` (Gemini needs its thought signature returned with each call). Pure.
 */
export function toPrompt(
  system: string,
  messages: readonly Message[],
  systemMessages: 'system-role' | 'user-text',
  callOptions: ReadonlyMap<string, SharedV3ProviderOptions> = new Map(),
): AiSdkPrompt {
  const prompt: AiSdkPrompt = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant': {
        const content: AssistantPart[] = message.text ? [{ type: 'text', text: message.text }] : [];
        for (const call of message.toolCalls) content.push(toolCallPart(call, callOptions.get(call.id)));
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        prompt.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: message.isError
                ? { type: 'error-text', value: message.content }
                : { type: 'text', value: message.content },
            },
          ],
        });
        break;
      case 'system':
        if (systemMessages === 'system-role') prompt.push({ role: 'system', content: message.content });
        else appendReminder(prompt, systemReminder(message.content));
        break;
    }
  }
  return prompt;
}

function toolCallPart(call: ToolCall, providerOptions: SharedV3ProviderOptions | undefined): AssistantPart {
  return {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: callInput(call.input),
    ...(providerOptions ? { providerOptions } : {}),
  };
}

/** A call's input as a JSON value: raw text the model sent is parsed when it is JSON, else kept as the string. */
function callInput(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** Appends a reminder to the last user message's text, or as a new user message after anything else. */
function appendReminder(prompt: AiSdkPrompt, reminder: string): void {
  const last = prompt.at(-1);
  const part = last?.role === 'user' ? last.content.at(-1) : undefined;
  if (part?.type === 'text') part.text = `${part.text}\n\n${reminder}`;
  else prompt.push({ role: 'user', content: [{ type: 'text', text: reminder }] });
}
