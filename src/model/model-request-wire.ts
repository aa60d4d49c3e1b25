import { isDeepStrictEqual } from 'node:util';
import {
  assistantMessage,
  deepFreeze,
  systemMessage,
  userMessage,
  type Message,
  type ToolResultMessage,
} from '../messages/messages.js';
import type { ToolSpec } from './model-client.js';

/**
 * The provider-neutral request as model-call hooks read and write it (snake_case, as every hook
 * payload): messages as `{role, content}` text, `{role: "assistant", text, tool_calls}` and
 * `{role: "tool", tool_use_id, tool_name, content, is_error}`.
 */
export type WireMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly tool_calls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
    }
  | {
      readonly role: 'tool';
      readonly tool_use_id: string;
      readonly tool_name: string;
      readonly content: string;
      readonly is_error: boolean;
    };

/** A message as hooks see it. */
export function toWire(message: Message): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        text: message.text,
        tool_calls: message.toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.input })),
      };
    case 'tool':
      return {
        role: 'tool',
        tool_use_id: message.toolCallId,
        tool_name: message.toolName,
        content: message.content,
        is_error: message.isError,
      };
  }
}

/** Wire forms already built: messages are deep-frozen, so one message always has the same form. */
const wireOf = new WeakMap<Message, WireMessage>();
/** The wire form of a conversation as last sent, per live message list (the loop's list only grows between requests). */
const wireLists = new WeakMap<
  readonly Message[],
  { length: number; last: Message | undefined; wire: WireMessage[] }
>();
const wireTools = new WeakMap<readonly ToolSpec[], readonly unknown[]>();

/**
 * `messages` as hooks see them, frozen, built incrementally: a request of the main loop converts
 * only the messages appended since its previous request (a model-call hook on every request of a
 * 10,000-message conversation would otherwise cost a conversion of all of it per request). The
 * returned array is frozen, so dispatch does not walk it again.
 */
export function messagesToWire(messages: readonly Message[]): readonly WireMessage[] {
  const cached = wireLists.get(messages);
  const reusable =
    cached !== undefined && cached.length <= messages.length && messages[cached.length - 1] === cached.last;
  const wire = reusable ? cached.wire : [];
  for (let index = wire.length; index < messages.length; index++) {
    const message = messages[index]!;
    let converted = wireOf.get(message);
    if (converted === undefined) {
      converted = deepFreeze(toWire(message));
      wireOf.set(message, converted);
    }
    wire.push(converted);
  }
  wireLists.set(messages, { length: messages.length, last: messages.at(-1), wire });
  return Object.freeze(wire.slice());
}

/** The tools of a request as PreModelRequest hooks see them (frozen; computed once per tool list). */
export function toolsToWire(
  tools: readonly ToolSpec[],
): readonly { name: string; description: string; input_schema: Record<string, unknown> }[] {
  let wire = wireTools.get(tools);
  if (wire === undefined) {
    wire = deepFreeze(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      })),
    );
    wireTools.set(tools, wire);
  }
  return wire as readonly { name: string; description: string; input_schema: Record<string, unknown> }[];
}

/**
 * A PreModelRequest hook's `updatedMessages` as the messages to send, or why they cannot be sent.
 *
 * What an edit may do: change, add or remove system, user and assistant text; remove a tool call
 * together with its result. What it may not (the loop alone records what ran, and pairs every call it records,
 * and a hook never forges a call or a result): add a tool call or a tool result the conversation
 * does not have, change a call's name or input or a result's content, or leave a call without its
 * result (or a result without its call) in the list. Tool calls and results are checked against the
 * conversation's own, by id, and the conversation's objects are sent (so image blocks survive).
 */
export function editedMessages(
  original: readonly Message[],
  edited: readonly WireMessage[],
): { ok: true; messages: Message[] } | { ok: false; error: string } {
  const calls = new Map<string, { name: string; input: unknown }>();
  const results = new Map<string, ToolResultMessage>();
  for (const message of original) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls) calls.set(call.id, { name: call.name, input: call.input });
    if (message.role === 'tool') results.set(message.toolCallId, message);
  }
  const out: Message[] = [];
  const open = new Set<string>();
  const usedCalls = new Set<string>();
  const usedResults = new Set<string>();
  for (const [index, message] of edited.entries()) {
    const at = `updatedMessages[${index}]`;
    if (message.role === 'system') out.push(systemMessage(message.content));
    else if (message.role === 'user') out.push(userMessage(message.content));
    else if (message.role === 'assistant') {
      if (open.size > 0)
        return { ok: false, error: `${at}: the tool call ${[...open][0]} before it has no result` };
      for (const call of message.tool_calls) {
        const known = calls.get(call.id);
        if (known === undefined)
          return {
            ok: false,
            error: `${at}: tool call ${call.id} is not one the model made; a hook cannot add tool calls`,
          };
        if (known.name !== call.name || !isDeepStrictEqual(known.input, call.input))
          return {
            ok: false,
            error: `${at}: tool call ${call.id} differs from the call the model made; a hook cannot change a call that ran`,
          };
        if (usedCalls.has(call.id)) return { ok: false, error: `${at}: tool call ${call.id} appears twice` };
        usedCalls.add(call.id);
        open.add(call.id);
      }
      out.push(
        assistantMessage(
          message.text,
          message.tool_calls.map((call) => ({
            id: call.id,
            name: call.name,
            input: calls.get(call.id)!.input,
          })),
        ),
      );
    } else {
      const known = results.get(message.tool_use_id);
      if (known === undefined)
        return {
          ok: false,
          error: `${at}: tool result ${message.tool_use_id} is not one the loop recorded; a hook cannot add tool results`,
        };
      if (known.content !== message.content || known.isError !== message.is_error)
        return {
          ok: false,
          error: `${at}: tool result ${message.tool_use_id} differs from the recorded one; a hook cannot change tool results`,
        };
      if (!open.has(message.tool_use_id) || usedResults.has(message.tool_use_id))
        return { ok: false, error: `${at}: tool result ${message.tool_use_id} does not follow its call` };
      open.delete(message.tool_use_id);
      usedResults.add(message.tool_use_id);
      out.push(known);
    }
  }
  if (open.size > 0)
    return { ok: false, error: `updatedMessages: the tool call ${[...open][0]} has no result` };
  return { ok: true, messages: out };
}
