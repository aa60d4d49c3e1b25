import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ToolCall } from '../messages/messages.js';
import type { StopReason, Usage } from '../model/model-client.js';
import { ProviderRequestError } from '../model/provider-errors.js';
import type { ModelStreamEvent } from '../model/stream-events.js';
import { fromAiSdkError } from './map-error.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import type { AiSdkFinishReason, AiSdkStreamPart, AiSdkUsage } from './spec-types.js';

/** The whole answer of one streamed AI SDK model call. */
export interface AccumulatedAnswer {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage;
  readonly stopReason: StopReason;
  readonly model: string | undefined;
  /** Provider metadata of each tool call that came with some, by call id (to be sent back with the call). */
  readonly callMetadata: ReadonlyMap<string, SharedV3ProviderOptions>;
}

interface OpenCall {
  readonly id: string;
  readonly name: string;
  /** The `tool-input-delta` text so far. */
  arguments: string;
  /** The complete input of the `tool-call` part, once it came. */
  input?: string;
  metadata?: SharedV3ProviderOptions;
}

/**
 * Folds AI SDK stream parts (v2 or v3) into one answer. `apply` takes one part and returns the
 * provider-neutral events to report; `finish` returns the answer. Pure state, no I/O.
 *
 * Text parts of every text id are joined in arrival order. A tool call starts at its first
 * `tool-input-start` or, for providers that send only whole calls, its `tool-call` part (then its
 * whole input is one delta); calls keep that order, and deltas of parallel calls may interleave.
 * The `tool-call` part's input is the call's input; the joined deltas stand in when it never came.
 * Reasoning, sources, files, raw chunks and calls the provider executed itself are not part of a
 * hookloop message and are dropped.
 */
export class PartAccumulator {
  private text = '';
  private readonly calls: OpenCall[] = [];
  private model: string | undefined;
  private started = false;
  private finishReason: AiSdkFinishReason | undefined;
  private usage: AiSdkUsage | undefined;
  private finished = false;
  /** Tool-input ids of calls the provider runs itself: their deltas are not hookloop's. */
  private readonly providerExecuted = new Set<string>();

  constructor(private readonly provider: string) {}

  /**
   * Applies one part.
   * @throws what an `error` part reports, mapped by fromAiSdkError (toProviderError finishes it).
   */
  apply(part: AiSdkStreamPart): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    if (part.type === 'response-metadata' && part.modelId) this.model = part.modelId;
    if (part.type === 'error') throw fromAiSdkError(part.error, this.provider);
    if (!this.started && part.type !== 'stream-start' && part.type !== 'raw') {
      this.started = true;
      events.push({ type: 'message_start', ...(this.model ? { model: this.model } : {}) });
    }
    switch (part.type) {
      case 'text-delta':
        if (part.delta) {
          this.text += part.delta;
          events.push({ type: 'text_delta', text: part.delta });
        }
        break;
      case 'tool-input-start':
        if (part.providerExecuted) this.providerExecuted.add(part.id);
        else if (this.position(part.id) < 0) events.push(this.open(part.id, part.toolName));
        break;
      case 'tool-input-delta': {
        const position = this.position(part.id);
        if (position < 0 || !part.delta) break;
        this.calls[position]!.arguments += part.delta;
        events.push({ type: 'tool_call_delta', index: position, argumentsDelta: part.delta });
        break;
      }
      case 'tool-call':
        if (!part.providerExecuted) events.push(...this.whole(part));
        break;
      case 'finish':
        this.finished = true;
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        break;
      default:
        break;
    }
    return events;
  }

  /**
   * The complete answer.
   * @throws ProviderRequestError (`connection`, retryable) when the stream closed without a finish part.
   */
  finish(): AccumulatedAnswer {
    if (!this.finished)
      throw new ProviderRequestError(
        this.provider,
        'API Error: Connection error: the stream ended before its finish part',
        { kind: 'connection', retryable: true },
      );
    const toolCalls = this.calls.map((call) => ({
      id: call.id,
      name: call.name,
      input: parseInput(call.input ?? call.arguments),
    }));
    const callMetadata = new Map(
      this.calls.flatMap((call) => (call.metadata ? [[call.id, call.metadata] as const] : [])),
    );
    return {
      text: this.text,
      toolCalls,
      usage: mapUsage(this.usage),
      stopReason: mapFinishReason(this.finishReason, toolCalls.length > 0),
      model: this.model,
      callMetadata,
    };
  }

  /** The `message_stop` event for the finished answer. */
  stopEvent(answer: AccumulatedAnswer): ModelStreamEvent {
    return { type: 'message_stop', stopReason: answer.stopReason, usage: answer.usage };
  }

  private open(id: string, name: string): ModelStreamEvent {
    this.calls.push({ id, name, arguments: '' });
    return { type: 'tool_call_start', index: this.calls.length - 1, id, name };
  }

  /** A complete `tool-call` part: it closes its streamed call, or is a call of its own. */
  private whole(part: Extract<AiSdkStreamPart, { type: 'tool-call' }>): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    let position = this.position(part.toolCallId);
    if (position < 0) {
      events.push(this.open(part.toolCallId, part.toolName));
      position = this.calls.length - 1;
      if (part.input) events.push({ type: 'tool_call_delta', index: position, argumentsDelta: part.input });
    }
    const call = this.calls[position]!;
    call.input = part.input;
    if (part.providerMetadata) call.metadata = part.providerMetadata as SharedV3ProviderOptions;
    return events;
  }

  private position(id: string): number {
    return this.calls.findIndex((call) => call.id === id);
  }
}

/** A call's input text as its input: `{}` when empty, the parsed value when valid JSON, else the raw text. */
function parseInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
