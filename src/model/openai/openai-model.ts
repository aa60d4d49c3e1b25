import OpenAI from 'openai';
import { assistantMessage } from '../../messages/messages.js';
import type { ModelClient, ModelRequest, ModelResponse, ToolChoice } from '../model-client.js';
import type { RetryOptions } from '../retry.js';
import { copyUnlessEventStream, rejectNonStreamBody } from '../non-stream-body.js';
import { DEFAULT_TIMEOUT_MS, streamWithRetries } from '../stream-attempt.js';
import type { SystemMessageSetting } from '../system-messages.js';
import { ChatStreamAccumulator } from './accumulate-stream.js';
import { toChatMessages } from './convert-messages.js';
import { prepareTools } from './prepare-tools.js';
import { httpFetch } from '../http-fetch.js';

/** Options of the OpenAI-compatible chat-completions provider. Only `model` is required. */
export interface OpenAICompatibleModelOptions {
  /** The model id the server knows, e.g. `gpt-5`, `deepseek-chat`, `qwen3-coder-plus`, `llama3.1`. */
  readonly model: string;
  /** Sent as `Authorization: Bearer` (OPENAI_API_KEY). Local servers that need none may leave it out. */
  readonly apiKey?: string | undefined;
  /** The API root including `/v1` (OPENAI_BASE_URL), e.g. `http://localhost:11434/v1`; default `https://api.openai.com/v1`. */
  readonly baseURL?: string | undefined;
  /** `max_tokens` of each request; not sent when unset (the server's default applies). */
  readonly maxTokens?: number | undefined;
  /** How hook context messages are sent; see SystemMessageSetting. Default `auto`. */
  readonly systemMessages?: SystemMessageSetting | undefined;
  /** Ask for usage on the last chunk (`stream_options.include_usage`, default true); turn off for servers that reject it. */
  readonly streamUsage?: boolean | undefined;
  /** Request timeout in ms: the longest silence before the response starts or between two chunks (default 600 000). */
  readonly timeoutMs?: number | undefined;
  readonly retry?: RetryOptions | undefined;
  /** Extra HTTP headers on every request (e.g. OpenRouter's `HTTP-Referer`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * The system-message mode `auto` resolves to: `system-role` against OpenAI itself (no base URL, or
 * api.openai.com), whose chat completions take system messages anywhere; `user-text` for every
 * other server, since many chat templates (Qwen, Llama, Mistral under vLLM or llama.cpp) reject a
 * system message that is not first.
 */
export function openAISystemMessages(
  setting: SystemMessageSetting | undefined,
  baseURL: string | undefined,
): 'system-role' | 'user-text' {
  if (setting === 'system-role' || setting === 'user-text') return setting;
  return baseURL === undefined || /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL)
    ? 'system-role'
    : 'user-text';
}

/**
 * The OpenAI-compatible chat-completions provider, on the official `openai` client: OpenAI,
 * DeepSeek, Qwen (DashScope compatible mode), Moonshot, OpenRouter, Ollama, vLLM, llama.cpp server —
 * any base URL. Every request streams; deltas reach `request.onStream`; the assembled message is
 * returned. Retries, backoff and the request timeout are hookloop's own (the SDK's are off).
 *
 * Contract: `complete` resolves with one assistant message or rejects with a
 * `ProviderRequestError` (after retries) or an `AbortError` (the request's signal fired).
 */
export class OpenAICompatibleModel implements ModelClient {
  readonly name = 'openai';
  /** The model id every request names. */
  readonly model: string;
  private readonly client: OpenAI;
  private readonly options: OpenAICompatibleModelOptions;
  private readonly systemMessages: 'system-role' | 'user-text';

  constructor(options: OpenAICompatibleModelOptions) {
    this.options = options;
    this.model = options.model;
    this.systemMessages = openAISystemMessages(options.systemMessages, options.baseURL);
    this.client = new OpenAI({
      // Local servers (Ollama, llama.cpp) need no key, but the client insists on one.
      apiKey: options.apiKey || 'no-key',
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
   * Streams one chat-completions request and returns the assembled answer; `model` is the id the server reported.
   * @throws ProviderRequestError after retries; AbortError when `request.signal` fires.
   */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const tools = prepareTools(request.tools);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: request.model ?? this.model,
      stream: true,
      messages: toChatMessages(request.system, request.messages, this.systemMessages),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { tool_choice: chatToolChoice(request.toolChoice) } : {}),
      ...((this.options.streamUsage ?? true) ? { stream_options: { include_usage: true } } : {}),
      ...((request.maxTokens ?? this.options.maxTokens) !== undefined
        ? { max_tokens: request.maxTokens ?? this.options.maxTokens }
        : {}),
    };
    const answer = await streamWithRetries(
      request,
      { provider: this.name, timeoutMs: this.options.timeoutMs, retry: this.options.retry },
      async ({ signal, emit, touch }) => {
        const { data: stream, response } = await this.client.chat.completions
          .create(body, { signal, maxRetries: 0 })
          .withResponse();
        const copy = copyUnlessEventStream(response);
        const accumulator = new ChatStreamAccumulator(this.name);
        let chunks = 0;
        for await (const chunk of stream) {
          touch();
          chunks += 1;
          for (const event of accumulator.apply(chunk)) emit(event);
        }
        await rejectNonStreamBody(this.name, copy, chunks);
        const finished = accumulator.finish();
        emit(accumulator.stopEvent(finished));
        return finished;
      },
    );
    return {
      message: assistantMessage(answer.text, answer.toolCalls),
      usage: answer.usage,
      stopReason: answer.stopReason,
      model: answer.model ?? request.model ?? this.model,
    };
  }
}

/** A request's `toolChoice` in chat-completions terms (`any` is `required` there). */
function chatToolChoice(choice: ToolChoice): OpenAI.Chat.Completions.ChatCompletionToolChoiceOption {
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return choice.type === 'any' ? 'required' : choice.type;
}
