import { toolResultMessage, type AssistantMessage } from '../messages/messages.js';
import { totalCostUsd } from '../model/pricing.js';
import type { UsageTally } from '../model/usage.js';
import { budgetReachedResult, budgetStoppedCall } from './hook-text.js';
import type { LoopEnd } from './loop-types.js';
import { appendMessage, type RunContext } from './run-context.js';

/**
 * True when the estimated cost of the requests tallied in `totals` (dated prices, model/pricing.ts)
 * is above `maxUsd`. A model without a known price adds nothing, so a run on such a model is not
 * stopped (the CLI warns about that when the budget is set).
 */
export function overBudget(totals: UsageTally, maxUsd: number): boolean {
  const known = Object.fromEntries(
    Object.entries(totals.byModel).filter(
      ([model]) => totalCostUsd({ [model]: totals.byModel[model]! }) !== null,
    ),
  );
  return (totalCostUsd(known) ?? 0) > maxUsd;
}

/**
 * Ends the run after the answer that passed the budget, as Claude Code does (`budget_exhausted`,
 * `Reached maximum budget ($N)`): the answer's calls do not run, each is paired with an error
 * result saying why, so the conversation stays well formed for a resume.
 */
export function endOverBudget(
  run: RunContext,
  assistant: AssistantMessage,
  maxUsd: number,
  stopReason: string | null,
): LoopEnd {
  for (const call of assistant.toolCalls) {
    const result = toolResultMessage(call.id, call.name, budgetStoppedCall(maxUsd), true);
    appendMessage(run, result);
    run.emit({ type: 'tool_result', toolName: call.name, toolUseId: call.id, result, ran: false });
  }
  return {
    result: budgetReachedResult(maxUsd),
    isError: true,
    terminalReason: 'budget_exhausted',
    stopReason,
  };
}
