import type { Approver, ApprovalVerdict } from '../permissions/types.js';
import type { CanUseTool } from './sdk-types.js';

/**
 * The Agent SDK's `canUseTool` as hookloop's approver: it is asked exactly what a person would be
 * asked (the policy's `ask`s nobody else decided), with the call's input, its `toolUseID` and the
 * policy's reason as `decisionReason`. `{ behavior: "allow", updatedInput }` runs the call with
 * that input once it passed the tool's schema and the policy again; `{ behavior: "deny", message,
 * interrupt }` refuses with `message` (the model reads it) and, with `interrupt`, ends the run.
 * A callback that throws or answers something else denies (the approver contract).
 */
export function canUseToolApprover(canUseTool: CanUseTool): Approver {
  return {
    async approve(request): Promise<ApprovalVerdict> {
      const input =
        request.input !== null && typeof request.input === 'object'
          ? { ...(request.input as Record<string, unknown>) }
          : {};
      let answer: unknown;
      try {
        answer = await canUseTool(request.toolName, input, {
          signal: request.signal,
          decisionReason: request.message,
          toolUseID: request.toolUseId ?? '',
        });
      } catch (error) {
        return { answer: 'deny', message: `canUseTool failed: ${(error as Error).message}` };
      }
      const result = (answer ?? {}) as {
        behavior?: unknown;
        updatedInput?: unknown;
        message?: unknown;
        interrupt?: unknown;
      };
      if (result.behavior === 'allow') {
        const updated = result.updatedInput;
        if (
          updated !== undefined &&
          updated !== null &&
          typeof updated === 'object' &&
          !Array.isArray(updated)
        )
          return { answer: 'allow', updatedInput: updated as Record<string, unknown> };
        return 'allow';
      }
      if (result.behavior === 'deny')
        return {
          answer: 'deny',
          message: typeof result.message === 'string' ? result.message : 'Permission denied by canUseTool',
          ...(result.interrupt === true ? { interrupt: true } : {}),
        };
      return {
        answer: 'deny',
        message: `canUseTool answered ${JSON.stringify(answer)}, not { behavior: "allow" | "deny" }`,
      };
    },
  };
}
