import { z } from 'zod';

/**
 * Schema pieces several events share. Field names are Claude Code's wire names (snake_case
 * inputs, camelCase outputs), as its command hooks read and print them.
 */

export const permissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']);
export const toolInput = z.record(z.string(), z.unknown());

/** Fields every event carries. `prompt_id` appears once a prompt exists; absent fields are absent, not null. */
export const commonInput = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  prompt_id: z.string().optional(),
  /** Inside a subagent (an agent hook's sub-run): its id on every event, its type where the reference reports it. */
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
};
/** Events with this carry `permission_mode` (the payload builder reads the schema to know). */
export const withMode = { permission_mode: permissionMode };
/** Events with this carry `effort`. */
export const withEffort = { effort: z.object({ level: z.string() }).optional() };

/** The server of an MCP tool (`mcp__server__tool`), on its tool events as Claude Code sends it (mcp-tools-and-matchers). */
export const mcpServerField = { mcp_server: z.object({ name: z.string(), source: z.string() }).optional() };

/** Output fields every event accepts. */
export const commonOutput = {
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
};
/** Claude Code's schema takes the legacy `decision` on every event; only `block` does something where it can block (`approve` is accepted and changes nothing). */
export const blockDecision = {
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
};
export const contextOnly = { additionalContext: z.string().optional() };

/** `hookSpecificOutput` of event `E`: strict, and its `hookEventName` must name `E`. */
export function specific<E extends string, S extends z.ZodRawShape>(event: E, shape: S) {
  return z.strictObject({ hookEventName: z.literal(event), ...shape }).optional();
}
