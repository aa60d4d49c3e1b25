/*
 * Subagents: their definitions (files, `--agents`, plugins, general-purpose), the Agent tool, and
 * the two runners of the loop as a subagent — an Agent call's (`runAgentSubagent`, continued by
 * `continueAgentSubagent` when its calls waited for a decision) and an agent hook's
 * (`runHookSubagent`). Both open and close a subagent the same way (subagent-turns.ts).
 */
export { GENERAL_PURPOSE, type AgentDefinition, type AgentSource } from './agent-definition.js';
export { loadAgents, parseAgentsJson, readAgentFile, type AgentSources } from './load-agents.js';
export { agentTool, type AgentInput, type AgentOutput } from './agent-tool.js';
export { runAgentSubagent, type SubagentSetup } from './run-subagent.js';
export { continueAgentSubagent } from './waiting-subagent.js';
export { AGENT_HOOK_TYPE, runSubagent as runHookSubagent } from './hook-subagent.js';
