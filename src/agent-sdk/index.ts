/**
 * `hookloop/agent-sdk`: the Claude Agent SDK's `query()`, `tool()` and `createSdkMcpServer()`, with
 * its option and message types, on hookloop's engine and any model. An Agent SDK program changes
 * its import line and runs: hooks fire through hookloop's hook engine, `canUseTool` is the
 * approver, the stream is the SDK's messages. What differs is listed in docs/agent-sdk.md.
 */
export { query, type Query } from './query.js';
export {
  createSdkMcpServer,
  tool,
  type CreateSdkMcpServerOptions,
  type SdkMcpToolDefinition,
} from './sdk-mcp-server.js';
export type {
  ContentBlock,
  ContentBlockParam,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKResultMessage,
  SDKSystemMessage,
  SDKUserMessage,
} from './sdk-messages.js';
export type {
  AgentDefinition,
  AsyncHookJSONOutput,
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  McpHttpServerConfig,
  McpSdkServerConfigWithInstance,
  McpServerConfig,
  McpSSEServerConfig,
  McpStdioServerConfig,
  PermissionMode,
  PermissionResult,
  SettingSource,
  SyncHookJSONOutput,
  SystemPromptPreset,
} from './sdk-types.js';
export type { HookloopQueryOptions, Options, SessionStoreFlush } from './sdk-options.js';
// The SDK exports its store types and its in-memory store; an SDK program importing them here keeps compiling.
export { InMemorySessionStore } from '../session/in-memory-session-store.js';
export type { SessionKey, SessionStore, SessionStoreEntry } from '../session/session-store.js';
