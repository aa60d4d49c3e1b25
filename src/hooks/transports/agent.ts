import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { HookServices } from '../hook-services.js';
import type { AgentHandlerConfig } from '../settings/settings-schema.js';
import { failedOutcome, substituteArguments, verdictOutcome } from './model-verdict.js';
import { timeoutSignal, untilAborted } from './deadline.js';

/**
 * Runs one `type: "agent"` hook: a subagent (`services.runSubagent`, a bounded read-only sub-run of
 * the loop) gets the hook's prompt with `$ARGUMENTS` replaced by the event JSON and must answer by
 * calling its StructuredOutput tool with `{ok, reason}`; the verdict maps as in `verdictOutcome`
 * (`ok: false` → `Agent hook condition was not met: <reason>`).
 *
 * A subagent that gives no verdict, a model error, or no runner (agent hooks do not run inside an
 * agent hook's own subagent) is a failure: non-blocking unless `onFailure: "block"`. Past
 * `timeoutMs` the sub-run is aborted (`timeout`). Never rejects.
 */
export async function runAgentHook(
  event: HookEventName,
  config: AgentHandlerConfig,
  origin: HandlerOrigin,
  input: Readonly<Record<string, unknown>>,
  context: { readonly signal: AbortSignal; readonly timeoutMs: number; readonly services: HookServices | undefined },
): Promise<HandlerOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const runSubagent = context.services?.runSubagent;
  if (runSubagent === undefined) return failedOutcome(origin, 'failed', 'agent hooks need a session that can run a subagent (they do not run inside an agent hook)', config.onFailure, 0);
  const limit = timeoutSignal(context.signal, context.timeoutMs);
  try {
    const answer = await untilAborted(runSubagent({ prompt: substituteArguments(config.prompt, input), input, signal: limit.signal }), limit.signal).catch(() => undefined);
    if (limit.timedOut()) return failedOutcome(origin, 'timeout', `timed out after ${context.timeoutMs} ms`, config.onFailure, elapsed());
    if (answer === undefined || context.signal.aborted) return failedOutcome(origin, 'failed', 'aborted', undefined, elapsed());
    if (answer.kind === 'failed') return failedOutcome(origin, 'failed', answer.error, config.onFailure, elapsed());
    return verdictOutcome(event, origin, answer, { kind: 'agent', continueOnBlock: true, durationMs: elapsed() });
  } finally {
    limit.dispose();
  }
}
