/**
 * `hookloop/providers`: the real model providers, each a `ModelClient` for `runAgent({ model })`.
 * A separate entry point so that `import 'hookloop'` does not load the two SDKs.
 *
 * - `AnthropicModel`: the Anthropic Messages API on `@anthropic-ai/sdk`.
 * - `OpenAICompatibleModel`: chat completions on `openai`, for any OpenAI-compatible base URL.
 *
 * Both stream, retry 429/5xx/connection failures with backoff (honouring `retry-after`), time out
 * a silent server, and reject with `ProviderRequestError` (exported by `hookloop`) or `AbortError`.
 */
export {
  AnthropicModel,
  anthropicSystemMessages,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  type AnthropicModelOptions,
} from './model/anthropic/anthropic-model.js';
export {
  OpenAICompatibleModel,
  openAISystemMessages,
  type OpenAICompatibleModelOptions,
} from './model/openai/openai-model.js';
