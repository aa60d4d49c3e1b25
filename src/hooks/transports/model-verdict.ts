import { z } from 'zod';
import { STOP_EVENTS, type HookEventName } from '../event-table.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';

/**
 * What prompt and agent hooks have in common: the prompt with `$ARGUMENTS` filled in, the
 * `{ok, reason}` verdict the model gives, and how a verdict becomes a hook outcome.
 */

/** The verdict a prompt or agent hook's model gives. `ok: false` refuses; `reason` says why. */
export interface ModelVerdict {
  readonly ok: boolean;
  readonly reason?: string;
}

const verdictSchema = z.looseObject({ ok: z.boolean(), reason: z.string().optional() });

/**
 * The hook's prompt with every `$ARGUMENTS` replaced by the event JSON (as a command hook reads it
 * on stdin); without `$ARGUMENTS` the JSON is appended after a blank line, as the reference does.
 */
export function substituteArguments(prompt: string, input: unknown): string {
  const json = JSON.stringify(input);
  return prompt.includes('$ARGUMENTS') ? prompt.split('$ARGUMENTS').join(json) : `${prompt}\n\n${json}`;
}

/**
 * Reads `{"ok": …, "reason": …}` from a model's answer: the whole text, or the first `{` to the
 * last `}` (models wrap JSON in prose or code fences). Returns an error text when there is none.
 */
export function parseVerdict(text: string): { readonly verdict: ModelVerdict } | { readonly error: string } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  const excerpt = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  if (start < 0 || end < start)
    return { error: `the model's answer is not {"ok", "reason"} JSON: ${excerpt}` };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { error: `the model's answer is not valid JSON: ${excerpt}` };
  }
  const parsed = verdictSchema.safeParse(value);
  if (!parsed.success) return { error: `the model's answer has no boolean "ok": ${excerpt}` };
  return {
    verdict:
      parsed.data.reason === undefined
        ? { ok: parsed.data.ok }
        : { ok: parsed.data.ok, reason: parsed.data.reason },
  };
}

/**
 * Turns a verdict into the outcome the merge table understands.
 * - `ok: true`: no opinion (`{}`): a model's "fine" never approves a call the permission policy would ask about.
 * - agent hook, `ok: false`: a blocking error `Agent hook condition was not met: <reason>` (Stop: the
 *   model gets `Stop hook feedback:\n<that>` and goes on, as the reference; PreToolUse: the call is refused).
 * - prompt hook, `ok: false` with `continueOnBlock`: a blocking error `[<prompt>]: <reason>` and the
 *   turn goes on (PreToolUse: the call's error result is `PreToolUse:<Tool> hook error: [<prompt>]: <reason>`).
 * - prompt hook, `ok: false` otherwise: on Stop/SubagentStop, `Prompt hook condition was not met:
 *   <reason>` and the model goes on (refusing to stop is what such a hook is for); on every other
 *   event the blocking error plus `continue: false`: the call is refused and the run ends
 *   (`hook_stopped`), as the reference does for PreToolUse.
 * Never throws.
 */
export function verdictOutcome(
  event: HookEventName,
  origin: HandlerOrigin,
  verdict: ModelVerdict,
  options: {
    readonly kind: 'prompt' | 'agent';
    readonly continueOnBlock: boolean;
    readonly durationMs: number;
  },
): HandlerOutcome {
  const base = { origin, durationMs: options.durationMs, failClosed: false };
  if (verdict.ok) return { ...base, status: 'ok', output: {} };
  const reason = verdict.reason ?? 'no reason given';
  if (options.kind === 'agent')
    return {
      ...base,
      status: 'blocked',
      output: {},
      blockMessage: `Agent hook condition was not met: ${reason}`,
    };
  if (options.continueOnBlock)
    return { ...base, status: 'blocked', output: {}, blockMessage: `[${origin.text}]: ${reason}` };
  // Where refusing means "do not stop yet" (the table's `decidesStop`), the model (or subagent) goes on.
  if (STOP_EVENTS.has(event))
    return {
      ...base,
      status: 'blocked',
      output: {},
      blockMessage: `Prompt hook condition was not met: ${reason}`,
    };
  return {
    ...base,
    status: 'blocked',
    output: { continue: false, stopReason: reason },
    blockMessage: `[${origin.text}]: ${reason}`,
  };
}

/** A failed or timed-out model-backed hook: non-blocking unless `onFailure: "block"`. */
export function failedOutcome(
  origin: HandlerOrigin,
  status: 'failed' | 'timeout',
  error: string,
  onFailure: 'block' | 'ignore' | undefined,
  durationMs: number,
): HandlerOutcome {
  return { origin, status, output: {}, error, failClosed: onFailure === 'block', durationMs };
}
