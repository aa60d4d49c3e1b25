import type OpenAI from 'openai';
import type { StopReason } from '../model-client.js';

type FinishReason = NonNullable<OpenAI.Chat.Completions.ChatCompletionChunk.Choice['finish_reason']>;

/**
 * A chat-completions `finish_reason` as hookloop's StopReason: `stop` → `end_turn`, `tool_calls`
 * and the legacy `function_call` → `tool_use`, `length` → `max_tokens`, `content_filter` →
 * `refusal`. Servers that answer `stop` although the message has tool calls (some Ollama and
 * llama.cpp versions) get `tool_use`. Exhaustive over the SDK's union; a value it does not know
 * passes through; a missing one is derived from whether there are tool calls.
 */
export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (reason === null || reason === undefined || reason === '') return hasToolCalls ? 'tool_use' : 'end_turn';
  const known = reason as FinishReason;
  switch (known) {
    case 'stop':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default: {
      const unknown: never = known;
      return unknown;
    }
  }
}
