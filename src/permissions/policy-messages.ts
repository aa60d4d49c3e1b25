import { GENERIC_BASH_REASON } from '../shell/index.js';
import type { ToolKind } from '../tools/define-tool.js';
import type { PermissionVerdict } from './types.js';

/** What the messages below need to know about a call. */
export interface CallText {
  readonly tool: { readonly name: string; readonly kind: ToolKind; readonly mcpServer?: unknown };
  readonly paths: readonly string[];
  readonly command: string | undefined;
}

/** Claude Code's words for a call a deny rule refused. */
export function denyMessage(call: CallText): string {
  if (call.command !== undefined)
    return `Permission to use ${call.tool.name} with command ${call.command} has been denied.`;
  return `Permission to use ${call.tool.name} has been denied.`;
}

/** Claude Code's words for a call that needs approval. */
export function askMessage(call: CallText): string {
  const file = call.paths[0];
  if (call.command !== undefined) return GENERIC_BASH_REASON.replace('Bash', call.tool.name);
  if (file !== undefined && call.tool.kind === 'edit')
    return `Claude requested permissions to write to ${file}, but you haven't granted it yet.`;
  if (file !== undefined && call.tool.kind === 'read')
    return `Claude requested permissions to read from ${file}, but you haven't granted it yet.`;
  return `Claude requested permissions to use ${call.tool.name}, but you haven't granted it yet.`;
}

/** Why plan mode refuses a call. */
export function planMessage(call: CallText): string {
  const file = call.paths[0];
  if (call.command !== undefined)
    return `Cannot run \`${call.command}\` while in plan mode: only read-only commands run in plan mode.`;
  if (file !== undefined && call.tool.kind === 'edit') return `Cannot write to ${file} while in plan mode.`;
  // Claude Code's words for an MCP tool differ from those for its other tools.
  return `Cannot ${call.tool.mcpServer ? 'call' : 'use'} ${call.tool.name} while in plan mode.`;
}

/**
 * What Claude Code appends to a dontAsk refusal (so the model reads the same words
 * under both agents; only the agent's name differs).
 */
export const DENIAL_WORKAROUND_GUIDANCE =
  "IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious ways, e.g. do not use your ability to run tests to execute non-test actions. You should only try to work around this restriction in reasonable ways that do not attempt to bypass the intent behind this denial. If you believe this capability is essential to complete the user's request, STOP and explain to the user what you were trying to do and why you need this permission. Let the user decide how to proceed.";

/** The refusal of a call that would need approval in `dontAsk` mode, in Claude Code's words. */
export function dontAskDenial(toolName: string): PermissionVerdict & { behavior: 'deny' } {
  return {
    behavior: 'deny',
    message: `Permission to use ${toolName} has been denied because hookloop is running in don't ask mode. ${DENIAL_WORKAROUND_GUIDANCE}`,
    source: 'mode dontAsk',
    cause: { kind: 'mode', mode: 'dontAsk' },
  };
}
