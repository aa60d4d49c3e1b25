/** Tools: defineTool, the registry that prepares calls, the workspace boundary, and the built-in tools. */
export {
  defineTool,
  ToolFailure,
  type AnyTool,
  type Tool,
  type ToolContext,
  type ToolKind,
} from './define-tool.js';
export { ToolRegistry, type PreparedCall } from './tool-registry.js';
export { Workspace } from './workspace.js';
export { builtinTools } from './builtin/index.js';
