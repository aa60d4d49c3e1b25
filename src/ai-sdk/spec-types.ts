/**
 * The AI SDK language-model specification versions the adapter reads, as type-only imports: the
 * model object is the caller's, so nothing of `@ai-sdk/provider` is loaded at run time.
 */
import type {
  LanguageModelV2,
  LanguageModelV2StreamPart,
  LanguageModelV2Usage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/**
 * A language model of specification `v2` (what `ai` 5 providers return) or `v3` (`ai` 6). The two
 * share the prompt, tool and stream-part shapes the adapter uses; they differ in `usage` and
 * `finishReason`, which the adapter reads in both forms.
 */
export type AiSdkLanguageModel = LanguageModelV2 | LanguageModelV3;

/** The call options the adapter builds; a v2 model takes the same fields. */
export type AiSdkCallOptions = LanguageModelV3CallOptions;

/** The prompt the adapter builds (the v2 prompt has the same shape for text, tool calls and results). */
export type AiSdkPrompt = LanguageModelV3Prompt;

/** One stream part of either version. */
export type AiSdkStreamPart = LanguageModelV2StreamPart | LanguageModelV3StreamPart;

/** The `usage` of a finish part: flat counts (v2) or input/output records (v3). */
export type AiSdkUsage = LanguageModelV2Usage | LanguageModelV3Usage;

/** The `finishReason` of a finish part: a string (v2) or `{ unified, raw }` (v3). */
export type AiSdkFinishReason = string | LanguageModelV3FinishReason;
