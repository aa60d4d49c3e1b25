/** MCP servers: their configs, the client, the set a session connects, and their tools as mcp__server__tool. */
export {
  McpClient,
  type ElicitationAnswer,
  type ElicitationRequest,
  type McpClientOptions,
  type McpClientState,
  type McpLogMessage,
  type McpProgress,
} from './mcp-client.js';
export {
  expandMcpPrompt,
  mcpPromptCommands,
  type McpPromptCommand,
  type McpPromptExpansion,
} from './mcp-prompts.js';
export { mcpInstructionsSection } from './server-instructions.js';
export {
  McpServerSet,
  serverEntries,
  type McpServersOption,
  type McpServerSetOptions,
} from './mcp-servers.js';
export { mcpTool, mcpToolName, normalizeMcpName, contentText, type McpContentBlock } from './mcp-tools.js';
export {
  loadMcpConfig,
  claudeJsonPath,
  type LoadedMcpConfig,
  type McpConfigSources,
  type SkippedServer,
} from './load-mcp-config.js';
export type {
  McpServerConfig,
  McpServerEntry,
  McpServerSource,
  StdioServerConfig,
  RemoteServerConfig,
  McpOAuthConfig,
} from './server-config.js';
