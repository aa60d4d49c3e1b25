import type { AssistantMessage, Message } from '../messages/messages.js';
import type { ModelStreamListener } from './stream-events.js';
import type { StopReason, Usage } from './answer-facts.js';

export type { StopReason, Usage } from './answer-facts.js';

/** A tool as offered to the model: name, description and JSON Schema of its input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/**
 * One model request; `signal` aborts it. `messages` is the whole conversation so far, read-only: it
 * is the loop's own list (copying it for every request made a tool call's cost grow with the
 * transcript), which the loop does not change while `complete` runs and appends to afterwards, so a
 * client that keeps it beyond `complete` must copy it. The messages themselves are frozen.
 * `onStream`, when given, hears the answer as it arrives (text and tool-call deltas) from providers
 * that stream; providers that don't (the scripted model) never call it. It changes nothing else:
 * `complete()` still resolves with the whole message.
 */
export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  /**
   * The model id to ask instead of the client's own (a PreModelRequest hook's `updatedModel`);
   * providers that name models send it, the scripted model records it.
   */
  readonly model?: string;
  /** `max_tokens` of this request instead of the client's setting (a PreModelRequest hook's `updatedMaxTokens`). */
  readonly maxTokens?: number;
  /**
   * How the model may use `tools` (a PreToolSelection hook's `toolChoice`): `auto` (default), `any`
   * (some tool), `none`, or `tool` (this one). Providers map it to their own field.
   */
  readonly toolChoice?: ToolChoice;
  readonly signal?: AbortSignal;
  readonly onStream?: ModelStreamListener;
}

/** See `ModelRequest.toolChoice`. */
export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'any' }
  | { readonly type: 'none' }
  | { readonly type: 'tool'; readonly name: string };

/** The answer to one model request. */
export interface ModelResponse {
  readonly message: AssistantMessage;
  readonly usage: Usage;
  readonly stopReason: StopReason;
  /** The model id that answered, for cost tables and logs. */
  readonly model?: string;
}

/**
 * A model provider. Contract: `complete` resolves with exactly one assistant message or rejects
 * (a `ProviderError` for API failures, an `AbortError` when `signal` fires); it never mutates the request.
 */
export interface ModelClient {
  /** Short provider name for logs and errors, e.g. `scripted`, `anthropic`. */
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
