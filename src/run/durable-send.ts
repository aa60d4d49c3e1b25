import type { Durability } from '../loop/durability.js';
import type { AgentSession } from './run-agent.js';
import type { RunResult } from './run-options.js';

/**
 * Sends `prompt` to `session` and, while the run ends with calls waiting for a decision, waits for
 * those decisions through `durability.waitForDecision` and resumes with them (an approved call
 * runs, a denied one is paired with its message; see `AgentSession.resume`). With the in-process
 * durability nothing waits: the first result comes back, `tool_deferred` as today.
 * `onWaiting`, when given, sees each `tool_deferred` result before the wait begins and is awaited
 * (an engine keeps it where a caller can read what a local run would have printed).
 * @throws ConfigError from `resume` when the decisions name a call that is not pending or approve
 *   another input (an engine should refuse such decisions before they reach the run).
 */
export async function sendAndAwaitDecisions(
  session: AgentSession,
  prompt: string,
  durability: Durability,
  onWaiting?: (result: RunResult) => Promise<void>,
): Promise<RunResult> {
  let result = await session.send(prompt);
  while (
    result.terminalReason === 'tool_deferred' &&
    result.pending !== undefined &&
    result.pending.length > 0
  ) {
    await onWaiting?.(result);
    const decisions = await durability.waitForDecision(result.pending);
    if (decisions === undefined) return result;
    result = await session.resume(decisions);
  }
  return result;
}
