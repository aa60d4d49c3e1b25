import type { RunResult } from '../run/run-agent.js';
import type { Usage } from '../model/model-client.js';
import { costUsd, totalCostUsd } from '../model/pricing.js';

/**
 * The `--output-format json` object, in Claude Code's field names (`type`, `subtype`, `is_error`,
 * `result`, `num_turns`, `session_id`, `duration_ms`, `usage`, `stop_reason`, `terminal_reason`,
 * `permission_denials`, `deferred_tool_use`, `api_error_status`), so scripts that read the reference's
 * result read ours. `usage` sums every model request; `modelUsage` has the same per model id with
 * its `costUSD` from the dated price table (model/pricing.ts); `total_cost_usd` is their sum, or
 * null when a model has no known price (the scripted model, OpenAI-compatible servers).
 */
export function resultJson(run: RunResult): Record<string, unknown> {
  // The reference's result for a prompt a UserPromptSubmit hook blocked has neither
  // `terminal_reason` nor `api_error_status` (conformance ups-block-json).
  const promptBlocked = run.terminalReason === 'prompt_blocked';
  // A run that passed its budget reports the reason in `errors`, without a `result` (as Claude Code 2.1.328).
  const overBudget = run.terminalReason === 'budget_exhausted';
  return {
    type: 'result',
    subtype: subtypeOf(run),
    is_error: run.isError,
    duration_ms: run.durationMs,
    num_turns: run.numTurns,
    ...(overBudget ? { errors: [run.result] } : { result: run.result }),
    stop_reason: run.stopReason,
    session_id: run.sessionId,
    total_cost_usd: totalCostUsd(run.modelUsage ?? {}),
    usage: {
      input_tokens: run.usage.inputTokens,
      cache_creation_input_tokens: run.usage.cacheCreationInputTokens ?? 0,
      cache_read_input_tokens: run.usage.cacheReadInputTokens ?? 0,
      output_tokens: run.usage.outputTokens,
    },
    modelUsage: Object.fromEntries(
      Object.entries(run.modelUsage ?? {}).map(([model, usage]) => [model, modelUsageJson(model, usage)]),
    ),
    permission_denials: run.permissionDenials,
    ...(promptBlocked ? {} : { terminal_reason: run.terminalReason }),
    ...(run.deferredToolUse ? { deferred_tool_use: run.deferredToolUse } : {}),
    // hookloop's: every call waiting for a decision (`--resume ID --approve ID --deny ID=why`).
    // A call waiting inside a subagent names it as hook payloads and stream-json do (`agent_id`, `agent_type`, `parent_tool_use_id`).
    ...(run.pending && run.pending.length > 0
      ? {
          pending_tool_uses: run.pending.map(({ agentId, agentType, parentToolUseId, ...call }) => ({
            ...call,
            ...(agentId !== undefined
              ? { agent_id: agentId, agent_type: agentType, parent_tool_use_id: parentToolUseId }
              : {}),
          })),
        }
      : {}),
    // Nor does it report `api_error_status` for a run a PreToolUse hook deferred (pre-json-defer).
    // Nor for a run that passed its budget (recorded with --max-budget-usd).
    ...(promptBlocked || overBudget || run.terminalReason === 'tool_deferred'
      ? {}
      : { api_error_status: run.apiErrorStatus ?? null }),
  };
}

/** One `modelUsage` entry, in Claude Code's camelCase names. */
function modelUsageJson(model: string, usage: Usage): Record<string, unknown> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
    costUSD: costUsd(model, usage) ?? null,
  };
}

function subtypeOf(run: RunResult): string {
  if (run.terminalReason === 'max_turns') return 'error_max_turns';
  if (run.terminalReason === 'budget_exhausted') return 'error_max_budget_usd';
  if (run.terminalReason === 'aborted' || run.terminalReason === 'aborted_tools')
    return 'error_during_execution';
  return 'success';
}

/** The process exit code for a run: 0 on success, 130 when aborted by the user, 1 for any other error. */
export function exitCodeOf(run: RunResult): number {
  if (run.terminalReason === 'aborted') return 130;
  return run.isError ? 1 : 0;
}
