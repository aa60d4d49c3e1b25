/**
 * Provider-neutral chat messages. Every constructor returns a deep-frozen object, so a hook, a
 * provider adapter or a transcript writer can never change a message another part already holds.
 *
 * Shapes:
 * - `system`: text the loop itself builds (hook context, feedback labels). Providers that accept
 *   mid-conversation system messages send it as is; others wrap it in user text.
 * - `user`: the prompt or loop-built user text (e.g. `Stop hook feedback:\n…`).
 * - `assistant`: the model's text plus the tool calls it asked for (`tool_calls` / `tool_use`).
 * - `tool`: one paired result for one tool call (`tool_result`), `isError` as the model sees it.
 */

/** One tool call the model asked for. `input` is the parsed arguments, or a JSON string when the provider sent raw text. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

export interface ToolResultMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName: string;
  /** The result as text (every provider can send it; images described in brackets). */
  readonly content: string;
  readonly isError: boolean;
  /** The result as content blocks, when the tool gave some (MCP tools: text and images); providers that take blocks send these instead of `content`. */
  readonly blocks?: readonly ToolResultBlock[];
}

/** One block of a tool result as the Anthropic Messages API takes it: text, or a base64 image. */
export type ToolResultBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image';
      readonly source: { readonly type: 'base64'; readonly media_type: string; readonly data: string };
    };

/** Any message in a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** Deep-freezes a JSON-like value in place and returns it. Used for messages, hook events and frozen tool inputs. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A structured-clone copy that is then deep-frozen: the caller's object stays mutable and unshared. */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

/** A loop-built system/context message. */
export function systemMessage(content: string): SystemMessage {
  return deepFreeze({ role: 'system', content });
}

/** A user message. */
export function userMessage(content: string): UserMessage {
  return deepFreeze({ role: 'user', content });
}

/** An assistant message; tool call inputs are copied and frozen. */
export function assistantMessage(text: string, toolCalls: readonly ToolCall[] = []): AssistantMessage {
  return deepFreeze({
    role: 'assistant',
    text,
    toolCalls: toolCalls.map((call) => structuredClone({ ...call })),
  });
}

/** The paired result of one tool call; `blocks` (copied) when the result has content blocks (see ToolResultMessage). */
export function toolResultMessage(
  toolCallId: string,
  toolName: string,
  content: string,
  isError: boolean,
  blocks?: readonly ToolResultBlock[],
): ToolResultMessage {
  return deepFreeze({
    role: 'tool',
    toolCallId,
    toolName,
    content,
    isError,
    ...(blocks ? { blocks: structuredClone(blocks) } : {}),
  });
}
