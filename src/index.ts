/**
 * hookloop: an agent loop whose every extension point is a hook.
 *
 * The library face: `runAgent(prompt, { model, projectDir, tools, hooks, permissions })` runs the
 * fixed pipeline SessionStart → UserPromptSubmit → (model → tools → PostToolBatch)* → Stop → SessionEnd;
 * `new HookEngine().on(event, { matcher }, handler)` registers typed
 * in-process hooks; `loadSettings` + `registerSettingsHandlers` run Claude Code `settings.json`
 * hooks unchanged. The scripted model for tests lives in `hookloop/testing`.
 */
export { runAgent, startSession, defaultTranscriptPath, type AgentSession, type RunOptions, type RunResult, type SessionEndReason, type TerminalReason } from './loop/run-agent.js';
// Approval that survives a restart (hookloop extension): a run's pending calls, decided later.
export { resumeAgent } from './loop/resume-agent.js';
export { APPROVAL_INPUT_CHANGED, CallsWaiting, DENIED_WHILE_PENDING, UNDECIDED_PENDING, type PendingCall, type PendingDecision, type PendingDecisions, type PendingReason } from './session/pending-calls.js';
export { GENERAL_PURPOSE, type AgentDefinition, type AgentSource } from './agents/agent-definition.js';
export { loadAgents, parseAgentsJson, readAgentFile, type AgentSources } from './agents/load-agents.js';
export type { AgentInput, AgentOutput } from './agents/agent-tool.js';
export { loadSkills, readSkillFile, type SkillDefinition, type SkillSources } from './skills/load-skills.js';
export { skillInstructions, skillListing, type SkillOutput } from './skills/skill-tool.js';
export { compactionThresholds, PROMPT_TOO_LONG, type CompactionOptions, type CompactionOutcome } from './loop/compaction.js';
export { loadSession, rebuildConversation, RESUMED_WITHOUT_RESULT, type ResumedSession } from './session/resume.js';
export { findTranscript, latestTranscript, projectSlug, resolveConfigDir, transcriptPathFor } from './session/paths.js';
export { readTranscriptLines, type TranscriptLine, type TranscriptRead } from './session/transcript-reader.js';
export type { RunEvent, RunObserver } from './loop/run-events.js';
export type { DecidingHook, PermissionDecisionRecord } from './loop/decision-record.js';
export { HookEngine, type CallbackOptions, type ConcurrencyLimits, type ConditionMatcher, type DispatchOptions, type DispatchResult, type Unregister } from './hooks/hook-engine.js';
export type { HookServices, SubagentAnswer, SubagentRequest, SubagentRunner } from './hooks/hook-services.js';
export { BackgroundHooks, type BackgroundDelivery } from './hooks/async-hooks.js';
export type { HookCallback, HookCallbackContext } from './hooks/transports/callback.js';
export { hookEventSchemas, permissionDecisionSchema, type HookEvents, type HookInput, type HookOutput, type HookPayload } from './hooks/event-schemas.js';
export { EXTENSION_EVENTS, HOOK_EVENT_NAMES, REFERENCE_ONLY_EVENTS, isHookEventName, type HookEventName } from './hooks/event-names.js';
export type { HookResult, MergedResult } from './hooks/event-table.js';
export type { BlockFeedback, BlockingMerge, CommonMerge, ElicitationChoice, ElicitationMerge, PermissionDeniedMerge, PermissionRequestMerge, PostToolUseMerge, PreToolDecision, PreToolUseMerge, SessionStartMerge } from './hooks/merge.js';
export type { PromptSubmitMerge } from './hooks/merge/prompt-submit.js';
// hookloop's model-call events (extensions): who made a request, and their merged results.
export { MODEL_CALLERS, type ModelCaller } from './hooks/events/model-events.js';
export type { PostModelResponseMerge, PreModelRequestMerge, PreToolSelectionMerge, SyntheticResponse, ToolChoiceAnswer } from './hooks/merge/model-calls.js';
export { addContext, allow, ask, block, deny, replaceOutput, rewriteInput, rewritePrompt, stopRun, type ContextEvent } from './hooks/builders.js';
export { checkHookOutput, type OutputCheck } from './hooks/validate-output.js';
export { readExternalOutput, type ExternalOutputRead } from './hooks/read-external-output.js';
export type { HandlerOutcome, HandlerOrigin, RegisteredHandler } from './hooks/handler.js';
export { loadSettings, parseSettingsText, type LoadedSettings, type LoadedHandler, type LoadSettingsOptions } from './hooks/settings/load-settings.js';
export { registerSettingsHandlers } from './hooks/transports/settings-handlers.js';
export { matcherMatches, compileMatcher } from './hooks/matcher.js';
export { defineTool, ToolFailure, type AnyTool, type Tool, type ToolContext, type ToolKind } from './tools/define-tool.js';
export { ToolRegistry, type PreparedCall } from './tools/tool-registry.js';
export { Workspace } from './tools/workspace.js';
export { builtinTools } from './tools/builtin/index.js';
export { PermissionPolicy } from './permissions/policy.js';
export { headlessApprover, callbackApprover, ttyApprover } from './permissions/approvers.js';
export { PERMISSION_MODES, type Approver, type ApprovalAnswer, type ApprovalRequest, type ApprovalVerdict, type PermissionMode, type PermissionRules, type PermissionVerdict, type PolicyCause } from './permissions/types.js';
export { assistantMessage, systemMessage, toolResultMessage, userMessage, type AssistantMessage, type Message, type SystemMessage, type ToolCall, type ToolResultMessage, type UserMessage } from './messages/messages.js';
export type { ModelClient, ModelRequest, ModelResponse, StopReason, ToolChoice, ToolSpec, Usage } from './model/model-client.js';
// The provider classes live in `hookloop/providers`; these are their light-weight companions.
export type { ModelStreamEvent, ModelStreamListener } from './model/stream-events.js';
export { ProviderRequestError, type ProviderFailureKind } from './model/provider-errors.js';
export type { RetryOptions } from './model/retry.js';
export type { SystemMessageSetting } from './model/system-messages.js';
export { PRICE_TABLE, PRICES_READ_ON, costUsd, priceOf, totalCostUsd, type ModelPrice } from './model/pricing.js';
export { AbortError, ConfigError, HookContractError, HookloopError, MaxTurnsError, ProviderError } from './errors.js';
export type { SandboxOptions } from './sandbox/run-sandbox.js';
export type { SandboxSettings } from './sandbox/sandbox-settings.js';
export { McpClient, type ElicitationAnswer, type ElicitationRequest, type McpClientOptions, type McpClientState, type McpLogMessage, type McpProgress } from './mcp/mcp-client.js';
export { expandMcpPrompt, mcpPromptCommands, type McpPromptCommand, type McpPromptExpansion } from './mcp/mcp-prompts.js';
export { mcpInstructionsSection } from './mcp/server-instructions.js';
export { McpServerSet, serverEntries, type McpServersOption, type McpServerSetOptions } from './mcp/mcp-servers.js';
export { mcpTool, mcpToolName, normalizeMcpName, contentText, type McpContentBlock } from './mcp/mcp-tools.js';
export { loadMcpConfig, claudeJsonPath, type LoadedMcpConfig, type McpConfigSources, type SkippedServer } from './mcp/load-mcp-config.js';
export type { McpServerConfig, McpServerEntry, McpServerSource, StdioServerConfig, RemoteServerConfig, McpOAuthConfig } from './mcp/server-config.js';
