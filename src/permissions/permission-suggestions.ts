import path from 'node:path';
import type { BashClassification } from '../shell/index.js';
import type { AnyTool } from '../tools/define-tool.js';
import { formatRule } from './rule.js';

/** What the suggestions need to know about a call. */
export interface SuggestedCall {
  readonly tool: { readonly name: string; readonly kind: string; readonly mcpServer?: unknown };
  readonly command: string | undefined;
}

/**
 * Claude Code's `permission_suggestions` for a call the mode asks about (the PermissionRequest
 * payload): an exact `Bash(<command>)` session rule for a program, the written file's folder
 * (plus acceptEdits for a plain file write), an allow rule for an MCP tool, acceptEdits for an edit.
 */
export function permissionSuggestions(call: SuggestedCall, bash: BashClassification | undefined): unknown[] {
  if (bash) {
    const first = bash.writes[0];
    if (!bash.parsed || first === undefined) return [];
    if (first.kind === 'program') {
      return [{ type: 'addRules', rules: [{ toolName: call.tool.name, ruleContent: escapeSpecifier(call.command ?? '') }], behavior: 'allow', destination: 'session' }];
    }
    if (first.place !== 'inside' || first.path === undefined) return [];
    const directories = [{ type: 'addDirectories', directories: [path.dirname(first.path)], destination: 'session' }];
    return first.kind === 'filesystem' ? [...directories, { type: 'setMode', mode: 'acceptEdits', destination: 'session' }] : directories;
  }
  if (call.tool.mcpServer) return [{ type: 'addRules', rules: [{ toolName: call.tool.name }], behavior: 'allow', destination: 'localSettings' }];
  return call.tool.kind === 'edit' ? [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] : [];
}

function escapeSpecifier(command: string): string {
  return formatRule('x', command).slice(2, -1);
}

/**
 * The session rule an approver's "always" should add for a call: `Bash(<exact command>)` (with
 * `(`, `)` and `*` escaped so the rule matches just that command), else the bare tool name.
 */
export function ruleForCall(tool: Pick<AnyTool, 'name' | 'kind'>, input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  return tool.kind === 'bash' && typeof command === 'string' ? formatRule(tool.name, command) : tool.name;
}
