import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { AgentHandlerConfig } from '../settings/settings-schema.js';
import { failedOutcome, substituteArguments, verdictOutcome } from './model-verdict.js';
import { runWithDeadline, type ModelHookContext } from './deadline.js';

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
  context: ModelHookContext,
): Promise<HandlerOutcome> {
  const runSubagent = context.services?.runSubagent;
  if (runSubagent === undefined)
    return failedOutcome(
      origin,
      'failed',
      'agent hooks need a session that can run a subagent (they do not run inside an agent hook)',
      config.onFailure,
      0,
    );
  return runWithDeadline(origin, config.onFailure, context, 'subagent', async (signal, elapsed) => {
    const traceparent = context.services?.traceparent;
    const answer = await runSubagent({
      prompt: substituteArguments(config.prompt, input),
      input,
      signal,
      ...(traceparent !== undefined ? { traceparent } : {}),
    });
    if (answer.kind === 'failed')
      return failedOutcome(origin, 'failed', answer.error, config.onFailure, elapsed());
    return verdictOutcome(event, origin, answer, {
      kind: 'agent',
      continueOnBlock: true,
      durationMs: elapsed(),
    });
  });
}
