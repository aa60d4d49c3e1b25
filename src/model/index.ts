/**
 * The model interface and its light-weight companions (stream events, request errors, retry and
 * system-message settings). The provider classes are `hookloop/providers`; the scripted model is
 * `hookloop/testing`.
 */
export type {
  ModelClient,
  ModelRequest,
  ModelResponse,
  StopReason,
  ToolChoice,
  ToolSpec,
  Usage,
} from './model-client.js';
export type { ModelStreamEvent, ModelStreamListener } from './stream-events.js';
export { ProviderRequestError, type ProviderFailureKind } from './provider-errors.js';
export type { RetryOptions } from './retry.js';
export type { SystemMessageSetting } from './system-messages.js';
