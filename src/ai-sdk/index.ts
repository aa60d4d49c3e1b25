/**
 * `hookloop/ai-sdk`: any Vercel AI SDK language model as a hookloop model. `fromAiSdk(model)`
 * takes a model object of specification v2 (`ai` 5 providers) or v3 (`ai` 6 providers), e.g. from
 * `@ai-sdk/google`, `@ai-sdk/amazon-bedrock` or `@ai-sdk/openai-compatible`, and returns a
 * `ModelClient` for `runAgent(prompt, { model })`. The AI SDK packages are optional peer
 * dependencies: this entry point imports none of them at run time.
 */
export { fromAiSdk, type AiSdkModelOptions } from './ai-sdk-model.js';
export type { AiSdkLanguageModel } from './spec-types.js';
