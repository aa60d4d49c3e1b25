import { z } from 'zod';
import type { ModelVerdict } from '../hooks/transports/model-verdict.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';

/** The tool result of a StructuredOutput call, as the reference words it (hook-type-agent). */
export const STRUCTURED_OUTPUT_ACCEPTED = 'Structured output provided successfully';

/**
 * The StructuredOutput tool of an agent hook's subagent: the only way it can give its verdict.
 * Each valid call reports `{ok, reason}` to `onAnswer`; the sub-run ends after that batch.
 * Read-only, so the subagent's dontAsk mode lets it run.
 */
export function structuredOutputTool(onAnswer: (verdict: ModelVerdict) => void): AnyTool {
  return defineTool({
    name: 'StructuredOutput',
    description:
      'Give your verdict on the condition you were asked to check. Call this exactly once, when you are done: ' +
      '{"ok": true} when the condition holds, {"ok": false, "reason": "…"} when it does not (the reason is shown to the main agent).',
    inputSchema: z.object({ ok: z.boolean(), reason: z.string().optional() }),
    kind: 'other',
    readOnly: true,
    handler: (input) => {
      onAnswer(input.reason === undefined ? { ok: input.ok } : { ok: input.ok, reason: input.reason });
      return STRUCTURED_OUTPUT_ACCEPTED;
    },
  });
}
