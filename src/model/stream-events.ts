import type { StopReason, Usage } from './answer-facts.js';

/**
 * What a streaming provider reports while one model request is in flight, in the order the
 * provider sends it. Provider-neutral: the Anthropic and OpenAI-compatible adapters map their
 * wire events to these. They are notifications only — the complete answer is still the
 * `ModelResponse` that `complete()` resolves with, and a request that fails after some events
 * were reported rejects as usual (the loop then ends the run through StopFailure).
 *
 * - `message_start`: the provider accepted the request; `model` is the model id it reports.
 * - `text_delta`: the next piece of the assistant's text, in order (concatenated they are the text).
 * - `tool_call_start`: the model began tool call number `index` (0-based, in message order).
 * - `tool_call_delta`: the next piece of that call's JSON arguments, as raw text.
 * - `message_stop`: the answer is complete; `usage` is the request's token counts.
 */
export type ModelStreamEvent =
  | { readonly type: 'message_start'; readonly model?: string }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'tool_call_start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly index: number; readonly argumentsDelta: string }
  | { readonly type: 'message_stop'; readonly stopReason: StopReason; readonly usage: Usage };

/** Receives ModelStreamEvents. Contract: must not throw (a provider ignores what it throws) and should return quickly. */
export type ModelStreamListener = (event: ModelStreamEvent) => void;
