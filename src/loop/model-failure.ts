import { describeError, ProviderError } from '../errors.js';
import type { LoopEnd } from './loop-types.js';
import { fireHook, type RunContext } from './run-context.js';

/**
 * A failed model request ends the loop. In the main session (`reportStopFailure`) it fires
 * StopFailure first (observers only: its answers decide nothing). An aborted run ends `aborted`
 * with the last text; any other failure `api_error` with the error's one line. Never throws.
 */
export async function failTurn(
  run: RunContext,
  error: unknown,
  lastText: string,
  reportStopFailure: boolean,
): Promise<LoopEnd> {
  const aborted = run.signal.aborted;
  const message = describeError(error);
  const status = error instanceof ProviderError ? (error.status ?? null) : null;
  if (!aborted && reportStopFailure) {
    await fireHook(run, 'StopFailure', { error: errorCategory(status), last_assistant_message: message });
  }
  return aborted
    ? { result: lastText, isError: true, terminalReason: 'aborted', stopReason: null }
    : // Claude Code ends such a run with a synthetic assistant message whose stop_reason is
      // stop_sequence, and reports it (conformance stop-failure-api-error).
      {
        result: message,
        isError: true,
        terminalReason: 'api_error',
        stopReason: 'stop_sequence',
        apiErrorStatus: status,
      };
}

/** StopFailure's `error` matcher value. The reference reported `unknown` for an HTTP 400. */
function errorCategory(status: number | null): string {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status !== null && status >= 500) return 'server_error';
  return 'unknown';
}
