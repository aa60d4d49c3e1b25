import { userMessage } from '../../messages/messages.js';
import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { PromptHandlerConfig } from '../settings/settings-schema.js';
import { failedOutcome, parseVerdict, substituteArguments, verdictOutcome } from './model-verdict.js';
import { runWithDeadline, type ModelHookContext } from './deadline.js';

/**
 * The system prompt of a prompt hook's request. Its first and last sentences are the reference's
 * (hook-type-prompt trace); the middle, which the trace redacts, is hookloop's own.
 */
export const PROMPT_HOOK_SYSTEM = [
  "You are evaluating a hook in Claude Code. The user's text says what to check. Decide whether the action may go ahead.",
  'The text ends with the hook event as JSON: the tool call, prompt or answer being checked.',
  'Answer with one JSON object and nothing else: {"ok": true, "reason": "…"} when it may go ahead, {"ok": false, "reason": "…"} when it may not.',
  'Always include a "reason" field.',
].join('\n\n');

/**
 * Runs one `type: "prompt"` hook: one request without tools through the session's model client
 * (`services.model`), the hook's prompt (with `$ARGUMENTS` replaced by the event JSON) as the only
 * user message, and the answer read as `{ok, reason}` (see `verdictOutcome` for what each verdict does).
 * The handler's `model` field is not used: hookloop asks the session's model.
 *
 * Failures (no model client, a provider error, an answer that is not the verdict JSON) are
 * non-blocking unless `onFailure: "block"`; past `timeoutMs` the request is aborted (`timeout`).
 * Never rejects.
 */
export async function runPromptHook(
  event: HookEventName,
  config: PromptHandlerConfig,
  origin: HandlerOrigin,
  input: Readonly<Record<string, unknown>>,
  context: ModelHookContext,
): Promise<HandlerOutcome> {
  const model = context.services?.model;
  if (model === undefined)
    return failedOutcome(
      origin,
      'failed',
      'prompt hooks need the session model client, and this dispatch has none',
      config.onFailure,
      0,
    );
  return runWithDeadline(origin, config.onFailure, context, 'model request', async (signal, elapsed) => {
    const response = await model.complete({
      system: PROMPT_HOOK_SYSTEM,
      messages: [userMessage(substituteArguments(config.prompt, input))],
      tools: [],
      signal,
    });
    const parsed = parseVerdict(response.message.text);
    if ('error' in parsed) return failedOutcome(origin, 'failed', parsed.error, config.onFailure, elapsed());
    return verdictOutcome(event, origin, parsed.verdict, {
      kind: 'prompt',
      continueOnBlock: config.continueOnBlock === true,
      durationMs: elapsed(),
    });
  });
}
