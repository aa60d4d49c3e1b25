import type { ToolKind } from './define-tool.js';

/**
 * What each of Claude Code's built-in tool names does, for the code that must know a tool by its
 * name alone (permission rules, the sandbox's translation of them, model-visible texts) — also for
 * the names hookloop does not ship (`MultiEdit`, `LS`, `NotebookRead`, `NotebookEdit`), since rules
 * and hooks written for Claude Code name them.
 * - `kind`: `read` reads files, `edit` edits files, `bash` runs commands (see `ToolKind`).
 * - `filePermission`: Claude Code checks the call with its file-permission check, which reports a
 *   hook's answered deny by its reason alone (measured on Read, Write and Edit; Glob, Grep and Bash
 *   keep the hook-error label).
 */
const BUILTIN_TOOLS: Readonly<
  Record<string, { readonly kind: Exclude<ToolKind, 'other'>; readonly filePermission?: true }>
> = {
  Read: { kind: 'read', filePermission: true },
  Glob: { kind: 'read' },
  Grep: { kind: 'read' },
  LS: { kind: 'read' },
  NotebookRead: { kind: 'read' },
  Write: { kind: 'edit', filePermission: true },
  Edit: { kind: 'edit', filePermission: true },
  MultiEdit: { kind: 'edit' },
  NotebookEdit: { kind: 'edit', filePermission: true },
  Bash: { kind: 'bash' },
};

/** The kind of the built-in tool called `toolName`; `other` for any other name (MCP tools, Agent, a custom tool). */
export function builtinToolKind(toolName: string): ToolKind {
  return Object.hasOwn(BUILTIN_TOOLS, toolName) ? BUILTIN_TOOLS[toolName]!.kind : 'other';
}

/** The names of the built-in tools of `kind` (`edit`: Write, Edit, MultiEdit, NotebookEdit). */
export function builtinToolsOfKind(kind: ToolKind): ReadonlySet<string> {
  return new Set(Object.keys(BUILTIN_TOOLS).filter((name) => BUILTIN_TOOLS[name]!.kind === kind));
}

/** True for the built-in tools that Claude Code checks with its file-permission check (Read, Write, Edit, NotebookEdit). */
export function usesFilePermissionCheck(toolName: string): boolean {
  return Object.hasOwn(BUILTIN_TOOLS, toolName) && BUILTIN_TOOLS[toolName]!.filePermission === true;
}
