import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantMessage, Message } from '../../messages/messages.js';
import { toAnthropicMessages, type AnthropicWireMessage } from '../anthropic-wire.js';
import { systemReminder } from '../system-messages.js';

type Block = Anthropic.ContentBlockParam;

/** Options of `toRequestMessages`. */
export interface ConvertOptions {
  /** `system-role` keeps loop context as `role: "system"` messages (placed by the API's rules); `user-text` folds it into user text. */
  readonly systemMessages: 'system-role' | 'user-text';
  /** Puts a prompt-cache breakpoint on the last block of the last message. */
  readonly cache: boolean;
  /** The blocks the API sent for an assistant message (thinking blocks and their signatures included), when known. */
  readonly rawAssistant?: (message: AssistantMessage) => readonly Block[] | undefined;
}

/**
 * Converts the conversation to the `messages` of a Messages API request. Starts from the shared
 * `toAnthropicMessages` (tool results grouped into one user message, as Claude Code sends them) and
 * then makes it acceptable to the real API:
 * - an assistant message is sent with the blocks the API returned for it (thinking blocks must come
 *   back unchanged in a tool-use loop); an empty one (no text, no calls) is left out;
 * - `system-role`: each run of system messages is merged and moved to just before the next
 *   assistant turn (or the end), right after a user message — the placement the API requires;
 *   where no user message precedes it, it is folded into user text instead;
 * - `user-text`: system text becomes a `<system-reminder>` text block appended to the preceding
 *   user message (after any tool_result blocks) or, after an assistant turn, a new user message;
 * - empty text blocks, which the API rejects, are dropped.
 * Pure: the input is not changed.
 */
export function toRequestMessages(
  messages: readonly Message[],
  options: ConvertOptions,
): Anthropic.MessageParam[] {
  const assistants = messages.filter((message): message is AssistantMessage => message.role === 'assistant');
  let assistantIndex = 0;
  const out: Anthropic.MessageParam[] = [];
  let pending: string[] = [];

  const fold = (texts: readonly string[]) => {
    const block: Block = { type: 'text', text: systemReminder(texts.join('\n\n')) };
    const last = out.at(-1);
    if (last?.role === 'user') (last.content as Block[]).push(block);
    else out.push({ role: 'user', content: [block] });
  };
  const flush = () => {
    if (pending.length === 0) return;
    if (out.at(-1)?.role === 'user')
      out.push({ role: 'system', content: [{ type: 'text', text: pending.join('\n\n') }] });
    else fold(pending);
    pending = [];
  };

  for (const wire of toAnthropicMessages(messages)) {
    if (wire.role === 'system') {
      const text = String(wire.content);
      if (options.systemMessages === 'user-text') fold([text]);
      else pending.push(text);
      continue;
    }
    if (wire.role === 'assistant') {
      const source = assistants[assistantIndex++];
      const blocks = (source && options.rawAssistant?.(source)) ?? assistantBlocks(wire);
      if (blocks.length === 0) continue;
      flush();
      out.push({ role: 'assistant', content: [...blocks] });
      continue;
    }
    const blocks = userBlocks(wire);
    const last = out.at(-1);
    // Consecutive user turns are one turn to the API. Tool results only ever follow an assistant
    // turn, so merging never puts text before a tool_result block.
    if (last?.role === 'user') (last.content as Block[]).push(...blocks);
    else out.push({ role: 'user', content: blocks });
  }
  flush();
  if (options.cache) markLastBlock(out);
  return out;
}

function assistantBlocks(wire: AnthropicWireMessage): Block[] {
  const blocks: Block[] = [];
  for (const block of wire.content as readonly Record<string, unknown>[]) {
    if (block['type'] === 'text' && block['text']) blocks.push({ type: 'text', text: String(block['text']) });
    else if (block['type'] === 'tool_use')
      blocks.push({
        type: 'tool_use',
        id: String(block['id']),
        name: String(block['name']),
        input: toolInput(block['input']),
      });
  }
  return blocks;
}

/** A call's input as the API wants it (an object): a raw JSON string the provider sent is parsed back, unparseable text becomes `{}`. */
function toolInput(input: unknown): Record<string, unknown> {
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}

function userBlocks(wire: AnthropicWireMessage): Block[] {
  const blocks = (wire.content as readonly Record<string, unknown>[]).filter(
    (block) => block['type'] !== 'text' || block['text'],
  );
  return blocks.length > 0
    ? (blocks.map((block) => ({ ...block })) as unknown as Block[])
    : [{ type: 'text', text: '(no content)' }];
}

function markLastBlock(messages: Anthropic.MessageParam[]): void {
  const last = messages.at(-1);
  if (!last || typeof last.content === 'string') return;
  const index = last.content.length - 1;
  const block = last.content[index];
  if (!block || block.type === 'thinking' || block.type === 'redacted_thinking') return;
  (last.content as Block[])[index] = { ...block, cache_control: { type: 'ephemeral' } } as Block;
}
