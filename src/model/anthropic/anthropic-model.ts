import Anthropic from '@anthropic-ai/sdk';
import { assistantMessage, type AssistantMessage } from '../../messages/messages.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../model-client.js';
import type { RetryOptions } from '../retry.js';
import { copyUnlessEventStream, rejectNonStreamBody } from '../non-stream-body.js';
import { streamWithRetries, DEFAULT_TIMEOUT_MS } from '../stream-attempt.js';
import type { SystemMessageSetting } from '../system-messages.js';
import { AnthropicStreamAccumulator } from './accumulate-stream.js';
import { toRequestMessages } from './convert-messages.js';
import { prepareTools } from './prepare-tools.js';
import { httpFetch } from '../http-fetch.js';

/** Options of the Anthropic Messages provider. Only `model` is required. */
export interface AnthropicModelOptions {
  /** The model id, e.g. `claude-sonnet-5-5`. */
  readonly model: string;
  /** The API key (ANTHROPIC_API_KEY); SDK 1.x sends it as `Authorization: Bearer`. */
  readonly apiKey?: string | undefined;
  /** Sent as `Authorization: Bearer` instead of an API key (ANTHROPIC_AUTH_TOKEN, for gateways). */
  readonly authToken?: string | undefined;
  /** The API root without `/v1` (ANTHROPIC_BASE_URL); default `https://api.anthropic.com`. */
  readonly baseURL?: string | undefined;
  /** `max_tokens` of each request (default 32 000; thinking shares this budget on models that think). */
  readonly maxTokens?: number | undefined;
  /** How hook context messages are sent; see SystemMessageSetting. Default `auto`. */
  readonly systemMessages?: SystemMessageSetting | undefined;
  /** Prompt-cache breakpoints on the system prompt, the tool list and the newest message (default true). */
  readonly promptCaching?: boolean | undefined;
  /** Request timeout in ms: the longest silence before the response starts or between two stream events (default 600 000). */
  readonly timeoutMs?: number | undefined;
  readonly retry?: RetryOptions | undefined;
  /** Extra HTTP headers on every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** The default `max_tokens` of a request. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 32_000;

/**
 * Models documented to accept mid-conversation `role: "system"` messages: Claude Opus 4.8 and the
 * Claude 5 generation (Opus, Sonnet, Haiku, Fable, Mythos). Older models answer 400.
 */
const SYSTEM_ROLE_MODELS = /^claude-(opus-4-8|(opus|sonnet|haiku|fable|mythos)-5)/;

/** The system-message mode `auto` resolves to for `model`. */
export function anthropicSystemMessages(
  setting: SystemMessageSetting | undefined,
  model: string,
): 'system-role' | 'user-text' {
  if (setting === 'system-role' || setting === 'user-text') return setting;
  return SYSTEM_ROLE_MODELS.test(model) ? 'system-role' : 'user-text';
}

/**
 * The Anthropic Messages API provider, on the official `@anthropic-ai/sdk`. Every request streams
 * (`stream: true`); text and tool-call deltas reach `request.onStream` as they arrive, and the
 * assembled message is returned. Retries, backoff and the request timeout are hookloop's own
 * (the SDK's are switched off) so that they are the same for every provider and testable.
 *
 * Contract: `complete` resolves with one assistant message or rejects with a
 * `ProviderRequestError` (API, connection, timeout or malformed-stream failure, after retries) or
 * an `AbortError` (the request's signal fired). Thinking blocks the model returns are kept and sent
 * back with their assistant message on later requests of the same client, as the API requires.
 */
export class AnthropicModel implements ModelClient {
  readonly name = 'anthropic';
  /** The model id every request names. */
  readonly model: string;
  private readonly client: Anthropic;
  private readonly options: AnthropicModelOptions;
  private readonly systemMessages: 'system-role' | 'user-text';
  private readonly rawBlocks = new WeakMap<AssistantMessage, readonly Anthropic.ContentBlockParam[]>();

  constructor(options: AnthropicModelOptions) {
    this.options = options;
    this.model = options.model;
    this.systemMessages = anthropicSystemMessages(options.systemMessages, options.model);
    this.client = new Anthropic({
      apiKey: options.apiKey ?? null,
      authToken: options.authToken ?? null,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // Node's http client instead of undici: see http-fetch.ts for what it costs and what is kept.
      fetch: httpFetch,
      logLevel: 'off',
      ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
    });
  }

  /**
   * Streams one Messages API request and returns the assembled answer; `model` is the id the API reported.
   * @throws ProviderRequestError after retries; AbortError when `request.signal` fires.
   */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const cache = this.options.promptCaching ?? true;
    const tools = prepareTools(request.tools, cache);
    const body: Anthropic.MessageCreateParamsStreaming = {
      model: request.model ?? this.model,
      max_tokens: request.maxTokens ?? this.options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      stream: true,
      messages: toRequestMessages(request.messages, {
        systemMessages: this.systemMessages,
        cache,
        rawAssistant: (message) => this.rawBlocks.get(message),
      }),
      ...(request.system
        ? {
            system: [
              {
                type: 'text',
                text: request.system,
                ...(cache ? { cache_control: { type: 'ephemeral' as const } } : {}),
              },
            ],
          }
        : {}),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
    };
    const answer = await streamWithRetries(
      request,
      { provider: this.name, timeoutMs: this.options.timeoutMs, retry: this.options.retry },
      async ({ signal, emit, touch }) => {
        const { data: stream, response } = await this.client.messages
          .create(body, { signal, maxRetries: 0 })
          .withResponse();
        const copy = copyUnlessEventStream(response);
        const accumulator = new AnthropicStreamAccumulator(this.name);
        let events = 0;
        for await (const event of stream) {
          touch();
          events += 1;
          for (const neutral of accumulator.apply(event)) emit(neutral);
        }
        await rejectNonStreamBody(this.name, copy, events);
        return accumulator.finish();
      },
    );
    const message = assistantMessage(answer.text, answer.toolCalls);
    if (answer.hasThinking) this.rawBlocks.set(message, answer.blocks);
    return {
      message,
      usage: answer.usage,
      stopReason: answer.stopReason,
      model: answer.model ?? request.model ?? this.model,
    };
  }
}
