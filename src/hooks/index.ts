/**
 * Hooks: the event map and its schemas, the engine that registers and fires handlers, the typed
 * builders and merged results, Claude Code settings files and their handlers, matchers.
 */
export {
  HookEngine,
  type BoundaryInfo,
  type CallbackOptions,
  type ConcurrencyLimits,
  type ConditionMatcher,
  type FireListener,
  type FireOptions,
  type HookPlan,
  type PhaseBoundary,
  type PhaseFire,
  type PlannedHandler,
  type SkipReason,
  type Unregister,
} from './hook-engine.js';
export type { HookServices, SubagentAnswer, SubagentRequest, SubagentRunner } from './hook-services.js';
export type { BackgroundDelivery } from './async-hooks.js';
export type { HookCallback, HookCallbackContext } from './transports/callback.js';
export {
  hookEventSchemas,
  permissionDecisionSchema,
  type HookEvents,
  type HookInput,
  type HookOutput,
  type HookPayload,
} from './event-schemas.js';
export {
  EXTENSION_EVENTS,
  HOOK_EVENT_NAMES,
  REFERENCE_ONLY_EVENTS,
  isHookEventName,
  type HookEventName,
} from './event-names.js';
export type { HookResult, MergedResult } from './event-table.js';
export type { BlockFeedback, BlockingMerge, PostToolUseMerge } from './merge/blocking.js';
export type {
  PermissionDeniedMerge,
  PermissionRequestMerge,
  PreToolDecision,
  PreToolUseMerge,
} from './merge/decisions.js';
export type { ElicitationChoice, ElicitationMerge, SessionStartMerge } from './merge/answers.js';
export type { CommonMerge } from './merge/rule.js';
export type { PromptSubmitMerge } from './merge/prompt-submit.js';
export { MODEL_CALLERS, type ModelCaller } from './events/model-events.js';
export type {
  PostModelResponseMerge,
  PreModelRequestMerge,
  PreToolSelectionMerge,
  SyntheticResponse,
  ToolChoiceAnswer,
} from './merge/model-calls.js';
export {
  addContext,
  allow,
  ask,
  block,
  deny,
  replaceOutput,
  rewriteInput,
  rewritePrompt,
  stopRun,
  type ContextEvent,
} from './builders.js';
export { checkHookOutput, type OutputCheck } from './validate-output.js';
export { readExternalOutput, type ExternalOutputRead } from './read-external-output.js';
export type { HandlerOutcome, HandlerOrigin, RegisteredHandler } from './handler.js';
export {
  loadSettings,
  parseSettingsText,
  type LoadedSettings,
  type LoadedHandler,
  type LoadSettingsOptions,
} from './settings/load-settings.js';
export { registerSettingsHandlers } from './transports/settings-handlers.js';
export { matcherMatches, compileMatcher } from './matcher.js';
