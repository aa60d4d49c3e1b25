import type OpenAI from 'openai';
import type { Message } from '../../messages/messages.js';
import { systemReminder } from '../system-messages.js';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * Converts the system prompt and the conversation to chat-completions `messages`:
 * the system prompt first (when not empty); user text; assistant text with `tool_calls`
 * (`arguments` always a JSON string, `content: null` when there is no text and there are calls);
 * one `tool` message per result; loop context as `system` messages where they stand
 * (`system-role`), or as `<system-reminder>` text appended to the preceding user message, or a new
 * user message after tool results (`user-text`: for chat templates that allow a system message only first).
 * Pure.
 */
export function toChatMessages(
  system: string,
  messages: readonly Message[],
  systemMessages: 'system-role' | 'user-text',
): ChatMessage[] {
  const out: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        if (message.toolCalls.length === 0) out.push({ role: 'assistant', content: message.text });
        else {
          out.push({
            role: 'assistant',
            content: message.text || null,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: {
                name: call.name,
                arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
              },
            })),
          });
        }
        break;
      case 'tool':
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
      case 'system': {
        if (systemMessages === 'system-role') {
          out.push({ role: 'system', content: message.content });
          break;
        }
        const last = out.at(-1);
        const reminder = systemReminder(message.content);
        if (last?.role === 'user' && typeof last.content === 'string')
          last.content = `${last.content}\n\n${reminder}`;
        else out.push({ role: 'user', content: reminder });
        break;
      }
    }
  }
  return out;
}
