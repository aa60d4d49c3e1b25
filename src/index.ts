/**
 * hookloop: an agent loop whose every extension point is a hook.
 *
 * The library face: `runAgent(prompt, { model, projectDir, tools, hooks, permissions })` runs the
 * fixed pipeline SessionStart → UserPromptSubmit → (model → tools → PostToolBatch)* → Stop → SessionEnd;
 * `new HookEngine().on(event, { matcher }, handler)` registers typed
 * in-process hooks; `loadSettings` + `registerSettingsHandlers` run Claude Code `settings.json`
 * hooks unchanged, and `loadClaudeCodeSetup` reads a project's whole Claude Code configuration as
 * run options. The scripted model for tests lives in `hookloop/testing`.
 *
 * Each line re-exports a folder's public face (its index.ts), nothing deeper.
 */
export * from './run/index.js';
export * from './session/index.js';
export {
  GENERAL_PURPOSE,
  loadAgents,
  parseAgentsJson,
  readAgentFile,
  type AgentDefinition,
  type AgentInput,
  type AgentOutput,
  type AgentSource,
  type AgentSources,
} from './agents/index.js';
export * from './skills/index.js';
export * from './loop/index.js';
export * from './hooks/index.js';
export * from './tools/index.js';
export {
  PermissionPolicy,
  ruleForCall,
  headlessApprover,
  callbackApprover,
  PERMISSION_MODES,
  type Approver,
  type ApprovalAnswer,
  type ApprovalRequest,
  type PermissionMode,
  type PermissionRules,
  type PermissionVerdict,
  type PolicyCause,
  type ApprovalVerdict,
} from './permissions/index.js';
export * from './messages/index.js';
export * from './model/index.js';
// The terminal approver is the CLI's, exported for embedders that ask a person on a TTY.
export { ttyApprover } from './cli/tty-approver.js';
// The system prompt hookloop writes for a model, and Claude Code's memory files (CLAUDE.md and rules).
export {
  loadMemory,
  managedMemoryFile,
  MAX_IMPORT_DEPTH,
  type LoadedMemory,
  type MemoryFile,
  type MemoryOptions,
  type MemoryType,
  type ScopedRule,
} from './memory/load-memory.js';
export { memoryReminder } from './memory/memory-text.js';
export { renderSubagentPrompt, renderSystemPrompt, type SystemPromptFacts } from './prompt/system-prompt.js';
export { environmentLines, type EnvironmentInput } from './prompt/environment.js';
export {
  AbortError,
  ConfigError,
  HookContractError,
  HookloopError,
  MaxTurnsError,
  ProviderError,
} from './errors.js';
export * from './sandbox/index.js';
export * from './mcp/index.js';
