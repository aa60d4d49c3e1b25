import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { ConfigError } from '../errors.js';
import { assistantMessage } from '../messages/messages.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../model/model-client.js';
import type { RetryOptions } from '../model/retry.js';
import { streamWithRetries } from '../model/stream-attempt.js';
import type { SystemMessageSetting } from '../model/system-messages.js';
import { PartAccumulator } from './accumulate-parts.js';
import { toPrompt } from './convert-prompt.js';
import { fromAiSdkError, nonStreamBody } from './map-error.js';
import { prepareToolChoice, prepareTools } from './prepare-tools.js';
import { readParts, untilAborted } from './read-parts.js';
import type { AiSdkCallOptions, AiSdkLanguageModel, AiSdkStreamPart } from './spec-types.js';

/** Options of `fromAiSdk`. All are optional. */
export interface AiSdkModelOptions {
  /** The client's name in logs and errors (default: the model's `provider`, e.g. `google.generative-ai`). */
  readonly name?: string | undefined;
  /**
   * Passed as the call's `providerOptions` on every request, keyed by provider as the AI SDK
   * documents (e.g. `{ google: { thinkingConfig: { thinkingBudget: 1024 } } }`).
   */
  readonly providerOptions?: SharedV3ProviderOptions | undefined;
  /** `maxOutputTokens` of each request; not sent when unset (the provider's default applies). */
  readonly maxTokens?: number | undefined;
  /**
   * How hook context messages are sent; see SystemMessageSetting. `auto` (default) is `user-text`:
   * several AI SDK providers (Gemini among them) accept system messages only at the start.
   */
  readonly systemMessages?: SystemMessageSetting | undefined;
  /** Request timeout in ms: the longest silence before the stream starts or between two parts (default 600 000). */
  readonly timeoutMs?: number | undefined;
  /** hookloop's retry policy (the AI SDK's own retries live in `ai`'s `streamText`, which is not used). */
  readonly retry?: RetryOptions | undefined;
  /** Extra HTTP headers on every request, for providers that send them. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The model to ask when a request names another model id (a PreModelRequest hook's
   * `updatedModel`), e.g. `(id) => google(id)`. Without it such a request fails with a ConfigError,
   * since an AI SDK model object answers for one model only.
   */
  readonly modelFor?: ((modelId: string) => AiSdkLanguageModel) | undefined;
}

const SUPPORTED = ['v2', 'v3'];

/**
 * Turns an AI SDK language model (specification `v2` from `ai` 5 providers, `v3` from `ai` 6) into
 * a hookloop ModelClient, e.g. `fromAiSdk(google('gemini-2.5-flash'))`. Every request streams
 * through `doStream`; nothing of the AI SDK is imported at run time.
 * @throws ConfigError when `model` is not a language model of a supported specification version.
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): ModelClient {
  checkModel(model);
  return new AiSdkModel(model, options);
}

/**
 * The ModelClient around one AI SDK model. Contract: `complete` resolves with one assistant
 * message or rejects with a `ProviderRequestError` (after hookloop's retries), an `AbortError`
 * (the request's signal fired; the signal is passed to the model as `abortSignal`), or a
 * `ConfigError` for a request naming a model id it has no model for (see `modelFor`).
 */
class AiSdkModel implements ModelClient {
  readonly name: string;
  /** Provider metadata of the tool calls so far, by call id, sent back with each call (Gemini's thought signatures). */
  private readonly callMetadata = new Map<string, SharedV3ProviderOptions>();

  constructor(
    private readonly model: AiSdkLanguageModel,
    private readonly options: AiSdkModelOptions,
  ) {
    this.name = options.name ?? model.provider;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const model = this.modelOf(request.model);
    const tools = prepareTools(request.tools);
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const mode = this.options.systemMessages === 'system-role' ? 'system-role' : 'user-text';
    const call: Omit<AiSdkCallOptions, 'abortSignal'> = {
      prompt: toPrompt(request.system, request.messages, mode, this.callMetadata),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { toolChoice: prepareToolChoice(request.toolChoice) } : {}),
      ...(maxTokens !== undefined ? { maxOutputTokens: maxTokens } : {}),
      ...(this.options.providerOptions ? { providerOptions: this.options.providerOptions } : {}),
      ...(this.options.headers ? { headers: { ...this.options.headers } } : {}),
    };
    const answer = await streamWithRetries(
      request,
      { provider: this.name, timeoutMs: this.options.timeoutMs, retry: this.options.retry },
      async ({ signal, emit, touch }) => {
        const accumulator = new PartAccumulator(this.name);
        let contentType: string | undefined;
        let finished;
        try {
          const result = await untilAborted(startStream(model, { ...call, abortSignal: signal }), signal);
          contentType = result.response?.headers?.['content-type'];
          await readParts(result.stream, signal, (part) => {
            touch();
            for (const event of accumulator.apply(part)) emit(event);
          });
          finished = accumulator.finish();
        } catch (error) {
          if (!signal.aborted)
            throw nonStreamBody(this.name, contentType) ?? fromAiSdkError(error, this.name);
          throw error;
        }
        emit(accumulator.stopEvent(finished));
        return finished;
      },
    );
    for (const [id, metadata] of answer.callMetadata) this.callMetadata.set(id, metadata);
    return {
      message: assistantMessage(answer.text, answer.toolCalls),
      usage: answer.usage,
      stopReason: answer.stopReason,
      model: answer.model ?? model.modelId,
    };
  }

  /** The model for a request's model id: this one, or the one `modelFor` gives. */
  private modelOf(modelId: string | undefined): AiSdkLanguageModel {
    if (modelId === undefined || modelId === this.model.modelId) return this.model;
    if (!this.options.modelFor)
      throw new ConfigError(
        `hookloop/ai-sdk: the request asks for model "${modelId}" but this client wraps "${this.model.modelId}"; pass modelFor to fromAiSdk to allow other models`,
        { field: 'modelFor' },
      );
    const other = this.options.modelFor(modelId);
    checkModel(other);
    return other;
  }
}

/**
 * Calls `doStream` of either version. One call options object serves both: v2 and v3 agree on
 * every field the adapter sends (they differ only in metadata types, which it never sets but on
 * tool calls the same model gave it).
 */
function startStream(
  model: AiSdkLanguageModel,
  options: AiSdkCallOptions,
): PromiseLike<{
  stream: ReadableStream<AiSdkStreamPart>;
  response?: { headers?: Record<string, string | undefined> };
}> {
  return (model as LanguageModelV3).doStream(options);
}

/** @throws ConfigError for anything but a v2 or v3 language model. */
function checkModel(model: unknown): asserts model is AiSdkLanguageModel {
  const candidate = (typeof model === 'object' && model !== null ? model : {}) as Record<string, unknown>;
  const version = candidate['specificationVersion'];
  if (typeof candidate['doStream'] !== 'function' || typeof version !== 'string')
    throw new ConfigError(
      'hookloop/ai-sdk: fromAiSdk expects an AI SDK language model (an object with specificationVersion and doStream), e.g. google("gemini-2.5-flash")',
      { field: 'model' },
    );
  if (!SUPPORTED.includes(version))
    throw new ConfigError(
      `hookloop/ai-sdk: the model's specificationVersion is "${version}"; supported: v2 (ai 5 providers) and v3 (ai 6 providers)`,
      { field: 'model.specificationVersion' },
    );
}
