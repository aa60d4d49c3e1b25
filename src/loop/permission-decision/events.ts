import { PERMISSION_DENIED_RETRY, permissionPromptNotice } from '../hook-text.js';
import { fireHook, type RunContext } from '../run-context.js';

/**
 * The two permission events around the approver (the approver, then PermissionDenied when it refused).
 *
 * - Notification (`notification_type: "permission_prompt"`) fires right before an approver that
 *   waits for a person (`Approver.awaitsHuman`, the TTY prompt) is asked, so a hook can call the
 *   user back to the terminal. Headless runs have nobody to notify and fire none, as the reference
 *   fires none in `-p`.
 * - PermissionDenied fires only where Claude Code fires it: when its auto-mode classifier refuses a
 *   call. hookloop's stand-in is `--permission-mode auto` (`RunOptions.permissions.autoMode`: dontAsk
 *   whose refusals play the classifier's); deny rules, plan mode, boundaries, plain dontAsk, hooks
 *   and approvals nobody gave fire none. A hook's `retry: true` adds `The PermissionDenied hook
 *   indicated you may retry this tool call.` as user text after the results.
 */

/** Fires Notification for a pending approval of `toolName`. */
export async function notifyApproval(run: RunContext, toolName: string): Promise<void> {
  await fireHook(run, 'Notification', {
    message: permissionPromptNotice(toolName),
    notification_type: 'permission_prompt',
  });
}

/** Fires PermissionDenied for a refused call; returns the user notes it asks for (the retry text, or none). */
export async function permissionDenied(
  run: RunContext,
  call: { readonly id: string },
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  reason: string,
): Promise<string[]> {
  // An MCP tool's event carries mcp_server last, as Claude Code sends it.
  const server = run.tools.get(toolName)?.mcpServer;
  const fields = {
    tool_name: toolName,
    tool_input: input as Record<string, unknown>,
    tool_use_id: call.id,
    reason,
    ...(server ? { mcp_server: { name: server.name, source: server.source } } : {}),
  };
  const denied = await fireHook(run, 'PermissionDenied', fields);
  return denied.retry ? [PERMISSION_DENIED_RETRY] : [];
}
