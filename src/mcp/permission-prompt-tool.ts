import type { Approver, ApprovalRequest, ApprovalVerdict } from '../permissions/types.js';
import type { McpServerSet } from './mcp-servers.js';
import { mcpToolName } from './mcp-names.js';
import { isDeepStrictEqual } from 'node:util';

/**
 * The approver of `--permission-prompt-tool mcp__<server>__<tool>`: each call the policy asks about
 * is put to that MCP tool, as Claude Code does headless. The tool gets
 * `{ "tool_name", "input", "tool_use_id" }` and answers, in its first text block, the JSON
 * `{ "behavior": "allow" | "deny", "updatedInput"?, "message"? }`.
 *
 * Contract:
 * - It is an approver like a person: it is asked only what the policy leaves to one, so a deny rule,
 *   the workspace boundary and hookloop's protected configuration refuse before it is asked, and
 *   its `allow` cannot lift them.
 * - Fails closed: a missing server or tool, an error result, text that is not that JSON, or an
 *   `updatedInput` other than the call's own input (hookloop does not let an approver rewrite a
 *   call: it would skip the checks a rewrite gets) is a deny, with a message saying which.
 * - `deny` with `message` refuses with that message (the model reads it).
 */
export function permissionPromptApprover(
  servers: () => McpServerSet | undefined,
  toolName: string,
): Approver {
  return {
    async approve(request: ApprovalRequest): Promise<ApprovalVerdict> {
      const deny = (message: string): ApprovalVerdict => ({ answer: 'deny', message });
      const set = servers();
      const found = set?.clients.flatMap((client) =>
        client.tools
          .filter((tool) => mcpToolName(client.name, tool.name) === toolName)
          .map((tool) => ({ client, tool })),
      )[0];
      if (!found)
        return deny(
          `Permission prompt tool ${toolName} is not available (no connected MCP server offers it), so ${request.toolName} was not allowed`,
        );
      let text: string;
      try {
        const result = await found.client.callTool(
          found.tool.name,
          {
            tool_name: request.toolName,
            input: request.input,
            ...(request.toolUseId !== undefined ? { tool_use_id: request.toolUseId } : {}),
          },
          request.signal,
        );
        text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))[0] ?? '';
        if (result.isError === true) return deny(`Permission prompt tool ${toolName} failed: ${text}`);
      } catch (error) {
        return deny(`Permission prompt tool ${toolName} failed: ${(error as Error).message}`);
      }
      let answer: { behavior?: unknown; updatedInput?: unknown; message?: unknown };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        return deny(
          `Permission prompt tool ${toolName} answered something that is not JSON: ${text.slice(0, 200)}`,
        );
      }
      if (answer === null || typeof answer !== 'object')
        return deny(
          `Permission prompt tool ${toolName} answered ${text.slice(0, 200)}, not {"behavior": "allow" | "deny"}`,
        );
      if (answer.behavior === 'deny')
        return typeof answer.message === 'string' && answer.message !== '' ? deny(answer.message) : 'deny';
      if (answer.behavior !== 'allow')
        return deny(
          `Permission prompt tool ${toolName} answered behavior ${JSON.stringify(answer.behavior)}, expected "allow" or "deny"`,
        );
      if (answer.updatedInput !== undefined && !isDeepStrictEqual(answer.updatedInput, request.input)) {
        return deny(
          `Permission prompt tool ${toolName} allowed ${request.toolName} with a changed input, which hookloop does not accept from an approver (a PreToolUse hook can rewrite input)`,
        );
      }
      return 'allow';
    },
  };
}
