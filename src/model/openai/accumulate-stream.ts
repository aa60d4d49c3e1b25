import type { ToolCall } from '../../messages/messages.js';
import type { StopReason, Usage } from '../model-client.js';
import { ProviderRequestError } from '../provider-errors.js';
import type { ModelStreamEvent } from '../stream-events.js';
import { mapFinishReason } from './map-finish-reason.js';
import { chatCompletionChunk, type ChatUsage, type ToolCallPiece } from './openai-wire-types.js';

/** The whole answer of one streamed chat-completions request. */
export interface AccumulatedChat {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage;
  readonly stopReason: StopReason;
  readonly model: string | undefined;
}

interface OpenCall {
  id: string;
  name: string;
  arguments: string;
  /** The server's `index` for this call, when it sent one. */
  wireIndex: number | undefined;
}

/**
 * Folds chat-completions stream chunks (choice 0) into one answer. `apply` takes one chunk as the
 * SDK parsed it and returns the provider-neutral events to report; `finish` returns the answer.
 * Pure state, no I/O. Tool-call pieces are matched to calls by `index`; when a server leaves `index`
 * out, by `id`, else the piece continues the last call. A piece that brings a new `id` and a name
 * under an index already taken starts a new call (servers that number every call 0). `arguments`
 * sent as an object is serialized; a call without an id gets `call_<n>`.
 */
export class ChatStreamAccumulator {
  private text = '';
  private readonly calls: OpenCall[] = [];
  private finishReason: string | undefined;
  private usage: ChatUsage | undefined;
  private model: string | undefined;
  private started = false;

  constructor(private readonly provider = 'openai') {}

  /**
   * Applies one chunk.
   * @throws ProviderRequestError (`stream`, not retried) for a chunk that does not match the protocol.
   */
  apply(raw: unknown): ModelStreamEvent[] {
    const parsed = chatCompletionChunk.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProviderRequestError(
        this.provider,
        `API Error: malformed stream chunk: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
        { kind: 'stream', retryable: false },
      );
    }
    const chunk = parsed.data;
    const events: ModelStreamEvent[] = [];
    if (chunk.model) this.model = chunk.model;
    if (!this.started) {
      this.started = true;
      events.push({ type: 'message_start', ...(this.model ? { model: this.model } : {}) });
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice) {
      const content = choice.delta?.content;
      if (content) {
        this.text += content;
        events.push({ type: 'text_delta', text: content });
      }
      for (const piece of choice.delta?.tool_calls ?? []) events.push(...this.toolPiece(piece));
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  /**
   * The complete answer.
   * @throws ProviderRequestError (`connection`, retryable) when the stream ended without a `finish_reason`.
   */
  finish(): AccumulatedChat {
    if (this.finishReason === undefined)
      throw new ProviderRequestError(
        this.provider,
        'API Error: Connection error: the stream ended before finish_reason',
        { kind: 'connection', retryable: true },
      );
    const toolCalls = this.calls.map((call) => ({
      id: call.id,
      name: call.name,
      input: parseArguments(call.arguments),
    }));
    const stopReason = mapFinishReason(this.finishReason, toolCalls.length > 0);
    return { text: this.text, toolCalls, usage: neutralUsage(this.usage), stopReason, model: this.model };
  }

  /** The `message_stop` event for the finished answer. */
  stopEvent(answer: AccumulatedChat): ModelStreamEvent {
    return { type: 'message_stop', stopReason: answer.stopReason, usage: answer.usage };
  }

  private toolPiece(piece: ToolCallPiece): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    let position = this.findCall(piece);
    if (position < 0) {
      position = this.calls.length;
      const call: OpenCall = {
        id: piece.id || `call_${position}`,
        name: piece.function?.name ?? '',
        arguments: '',
        wireIndex: piece.index ?? undefined,
      };
      this.calls.push(call);
      events.push({ type: 'tool_call_start', index: position, id: call.id, name: call.name });
    } else if (piece.function?.name && !this.calls[position]!.name)
      this.calls[position]!.name = piece.function.name;
    const args = piece.function?.arguments;
    const text = typeof args === 'string' ? args : args ? JSON.stringify(args) : '';
    if (text) {
      this.calls[position]!.arguments += text;
      events.push({ type: 'tool_call_delta', index: position, argumentsDelta: text });
    }
    return events;
  }

  /** The call this piece continues, or -1 when it starts a new one. */
  private findCall(piece: ToolCallPiece): number {
    const index = piece.index ?? undefined;
    const id = piece.id || undefined;
    if (index !== undefined) {
      const position = this.calls.findLastIndex((call) => call.wireIndex === index);
      if (position < 0) return -1;
      const existing = this.calls[position]!;
      const startsAnother = id !== undefined && id !== existing.id && Boolean(piece.function?.name);
      return startsAnother ? -1 : position;
    }
    if (id !== undefined) return this.calls.findIndex((call) => call.id === id);
    return this.calls.length - 1;
  }
}

/** Chat usage as hookloop's Usage: cached prompt tokens are taken out of `inputTokens` and reported as cache reads. */
function neutralUsage(usage: ChatUsage | undefined): Usage {
  const prompt = usage?.prompt_tokens ?? 0;
  const cached =
    usage?.prompt_tokens_details?.cached_tokens ??
    usage?.prompt_cache_hit_tokens ??
    usage?.cached_tokens ??
    0;
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: usage?.completion_tokens ?? 0,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
  };
}

/** Joined `arguments` text as the call's input: `{}` when empty, the parsed value when valid JSON, else the raw text. */
function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
