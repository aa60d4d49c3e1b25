import type { Message } from '../messages/messages.js';

/** A Messages API message as sent on the wire (content blocks), including the mid-conversation `system` role Claude Code uses for hook context. */
export interface AnthropicWireMessage {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: string | readonly Record<string, unknown>[];
}

/**
 * Converts provider-neutral messages to Anthropic Messages API shape: assistant text and
 * `tool_use` blocks, consecutive tool results grouped into one user message of `tool_result`
 * blocks (as Claude Code sends them), user text as text blocks, loop-built context as `system`
 * messages. Pure; used by the request recorder and by the Anthropic provider.
 */
export function toAnthropicMessages(messages: readonly Message[]): AnthropicWireMessage[] {
  const wire: AnthropicWireMessage[] = [];
  let results: Record<string, unknown>[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.blocks ?? message.content,
        ...(message.isError ? { is_error: true } : {}),
      };
      if (results) results.push(block);
      else {
        results = [block];
        wire.push({ role: 'user', content: results });
      }
      continue;
    }
    results = undefined;
    if (message.role === 'assistant') {
      const blocks: Record<string, unknown>[] = message.text ? [{ type: 'text', text: message.text }] : [];
      for (const call of message.toolCalls)
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
      wire.push({ role: 'assistant', content: blocks });
    } else if (message.role === 'user')
      wire.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
    else wire.push({ role: 'system', content: message.content });
  }
  return wire;
}
