import { describeError } from '../../errors.js';
import type { HookEventName } from '../event-names.js';
import type { HookInput, HookOutput } from '../event-schemas.js';
import type { HandlerOutcome, HandlerOrigin } from '../handler.js';
import { checkHookOutput } from '../validate-output.js';

/** What an in-process hook receives besides the event: an AbortSignal that fires when the run is aborted or the hook times out. */
export interface HookCallbackContext {
  readonly signal: AbortSignal;
}

/**
 * An in-process hook. Receives the deep-frozen event payload (the same object a command hook reads
 * on stdin); returns its output, or nothing for "no opinion". Throwing is a failure: gate events
 * (PreToolUse, PermissionRequest, UserPromptSubmit) fail closed, observers fail open and are reported.
 */
export type HookCallback<E extends HookEventName> = (
  input: Readonly<HookInput<E>>,
  context: HookCallbackContext,
) => HookOutput<E> | void | undefined | Promise<HookOutput<E> | void | undefined>;

/** Events whose in-process hooks fail closed when they throw or break the output contract. */
export const GATE_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit']);

/**
 * Runs one callback and turns its answer into a HandlerOutcome. An output that breaks the event's
 * contract is a failure whose `error` is the HookContractError message naming the field.
 * Never throws.
 */
export async function runCallback<E extends HookEventName>(
  event: E,
  callback: HookCallback<E>,
  origin: HandlerOrigin,
  input: Readonly<HookInput<E>>,
  signal: AbortSignal,
): Promise<HandlerOutcome> {
  const started = performance.now();
  const failClosed = GATE_EVENTS.has(event);
  try {
    const answer = await callback(input, { signal });
    const checked = checkHookOutput(event, answer);
    const durationMs = performance.now() - started;
    if (!checked.ok) return { origin, status: 'failed', output: {}, error: checked.error.message, failClosed, durationMs };
    return { origin, status: 'ok', output: checked.output as Record<string, unknown>, failClosed: false, durationMs };
  } catch (error) {
    return { origin, status: 'failed', output: {}, error: `threw: ${describeError(error)}`, failClosed, durationMs: performance.now() - started };
  }
}
