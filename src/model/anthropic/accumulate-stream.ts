import type Anthropic from '@anthropic-ai/sdk';
import type { ToolCall } from '../../messages/messages.js';
import type { StopReason, Usage } from '../model-client.js';
import { ProviderRequestError } from '../provider-errors.js';
import type { ModelStreamEvent } from '../stream-events.js';
import { anthropicStreamEvent, KNOWN_EVENT_TYPES, type AnthropicUsage } from './anthropic-wire-types.js';
import { mapStopReason } from './map-stop-reason.js';

/** The whole answer of one streamed Messages API request. */
export interface AccumulatedMessage {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** The blocks as they must be sent back (thinking blocks with their signatures included). */
  readonly blocks: readonly Anthropic.ContentBlockParam[];
  readonly hasThinking: boolean;
  readonly usage: Usage;
  readonly stopReason: StopReason;
  readonly model: string | undefined;
}

type OpenBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; call: number }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'other' };

/**
 * Folds Messages API stream events into one answer. `apply` takes one raw event (as the SDK
 * parsed it from the SSE `data:` line) and returns the provider-neutral events to report; `finish`
 * returns the answer. Pure state, no I/O. Tool arguments arrive as `input_json_delta` pieces split
 * anywhere (even inside a string or an escape); they are joined and parsed once, at the block's end:
 * empty means `{}`, invalid JSON is kept as the raw string (the tool registry reports it to the model).
 */
export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly order: number[] = [];
  private usage: AnthropicUsage = {};
  private stopReason: string | null | undefined;
  private model: string | undefined;
  private stopped = false;
  private calls = 0;

  constructor(private readonly provider = 'anthropic') {}

  /**
   * Applies one raw stream event.
   * @throws ProviderRequestError (`stream`, not retried) for an event that does not match the protocol.
   */
  apply(raw: unknown): ModelStreamEvent[] {
    const type = (raw as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && !KNOWN_EVENT_TYPES.has(type)) return [];
    const parsed = anthropicStreamEvent.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProviderRequestError(
        this.provider,
        `API Error: malformed stream event (${String(type ?? 'no type')}): ${issue.path.join('.') || '(root)'}: ${issue.message}`,
        { kind: 'stream', retryable: false },
      );
    }
    const event = parsed.data;
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model ?? undefined;
        this.usage = { ...event.message.usage };
        return [{ type: 'message_start', ...(this.model ? { model: this.model } : {}) }];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return [];
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        for (const [key, value] of Object.entries(event.usage ?? {}))
          if (typeof value === 'number') (this.usage as Record<string, number>)[key] = value;
        return [];
      case 'message_stop':
        this.stopped = true;
        return [{ type: 'message_stop', stopReason: this.stop(), usage: this.neutralUsage() }];
      case 'ping':
        return [];
    }
  }

  /**
   * The complete answer.
   * @throws ProviderRequestError (`connection`, retryable) when the stream ended before `message_stop`.
   */
  finish(): AccumulatedMessage {
    if (!this.stopped)
      throw new ProviderRequestError(
        this.provider,
        'API Error: Connection error: the stream ended before message_stop',
        { kind: 'connection', retryable: true },
      );
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    const blocks: Anthropic.ContentBlockParam[] = [];
    let hasThinking = false;
    for (const index of this.order) {
      const block = this.blocks.get(index)!;
      if (block.kind === 'text') {
        texts.push(block.text);
        if (block.text) blocks.push({ type: 'text', text: block.text });
      } else if (block.kind === 'tool_use') {
        const input = parseArguments(block.json);
        toolCalls.push({ id: block.id, name: block.name, input });
        blocks.push({
          type: 'tool_use',
          id: block.id,
          name: block.name,
          input: typeof input === 'string' ? {} : input,
        });
      } else if (block.kind === 'thinking') {
        hasThinking = true;
        blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      } else if (block.kind === 'redacted_thinking') {
        hasThinking = true;
        blocks.push({ type: 'redacted_thinking', data: block.data });
      }
    }
    return {
      text: texts.join(''),
      toolCalls,
      blocks,
      hasThinking,
      usage: this.neutralUsage(),
      stopReason: this.stop(toolCalls.length > 0),
      model: this.model,
    };
  }

  private startBlock(index: number, start: Record<string, unknown>): ModelStreamEvent[] {
    this.order.push(index);
    switch (start['type']) {
      case 'text':
        this.blocks.set(index, { kind: 'text', text: String(start['text'] ?? '') });
        return start['text'] ? [{ type: 'text_delta', text: String(start['text']) }] : [];
      case 'tool_use': {
        const call = this.calls++;
        const input = start['input'];
        // The start block carries `input: {}`; a server that sends the whole input here (no deltas) is honoured.
        const json =
          input && typeof input === 'object' && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
        this.blocks.set(index, {
          kind: 'tool_use',
          id: String(start['id'] ?? ''),
          name: String(start['name'] ?? ''),
          json,
          call,
        });
        return [
          {
            type: 'tool_call_start',
            index: call,
            id: String(start['id'] ?? ''),
            name: String(start['name'] ?? ''),
          },
        ];
      }
      case 'thinking':
        this.blocks.set(index, {
          kind: 'thinking',
          thinking: String(start['thinking'] ?? ''),
          signature: String(start['signature'] ?? ''),
        });
        return [];
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted_thinking', data: String(start['data'] ?? '') });
        return [];
      default:
        this.blocks.set(index, { kind: 'other' });
        return [];
    }
  }

  private delta(index: number, delta: Record<string, unknown>): ModelStreamEvent[] {
    const block = this.blocks.get(index);
    if (!block)
      throw new ProviderRequestError(
        this.provider,
        `API Error: malformed stream event: content_block_delta for block ${index}, which never started`,
        { kind: 'stream', retryable: false },
      );
    if (delta['type'] === 'text_delta' && block.kind === 'text') {
      const text = String(delta['text'] ?? '');
      block.text += text;
      return text ? [{ type: 'text_delta', text }] : [];
    }
    if (delta['type'] === 'input_json_delta' && block.kind === 'tool_use') {
      const piece = String(delta['partial_json'] ?? '');
      block.json += piece;
      return piece ? [{ type: 'tool_call_delta', index: block.call, argumentsDelta: piece }] : [];
    }
    if (delta['type'] === 'thinking_delta' && block.kind === 'thinking')
      block.thinking += String(delta['thinking'] ?? '');
    else if (delta['type'] === 'signature_delta' && block.kind === 'thinking')
      block.signature += String(delta['signature'] ?? '');
    return [];
  }

  private stop(
    hasToolCalls = [...this.blocks.values()].some((block) => block.kind === 'tool_use'),
  ): StopReason {
    return mapStopReason(this.stopReason, hasToolCalls);
  }

  private neutralUsage(): Usage {
    const usage = this.usage;
    return {
      inputTokens: usage.input_tokens ?? 0,
      outputTokens: usage.output_tokens ?? 0,
      ...(typeof usage.cache_read_input_tokens === 'number'
        ? { cacheReadInputTokens: usage.cache_read_input_tokens }
        : {}),
      ...(typeof usage.cache_creation_input_tokens === 'number'
        ? { cacheCreationInputTokens: usage.cache_creation_input_tokens }
        : {}),
    };
  }
}

/** Joined `input_json_delta` text as the call's input: `{}` when empty, the parsed value when valid JSON, else the raw text. */
function parseArguments(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
