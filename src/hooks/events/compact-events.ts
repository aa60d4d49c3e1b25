import { z } from 'zod';
import { blockingRule } from '../merge/blocking.js';
import { observerRule } from '../merge/rule.js';
import { defineEvent } from './define-event.js';
import { blockDecision, commonInput, commonOutput } from './fields.js';

/** The events around a compaction of the conversation. */

/** What started a compaction: the context neared the window (`auto`) or someone asked for it (`manual`: `/compact`, the API). */
const compactTrigger = z.enum(['auto', 'manual']);

/**
 * Before a compaction: exit 2 or `decision: "block"` skips it (a compaction the context needs then
 * ends the run); plain stdout is added to the summarizer's instructions.
 */
export const PreCompact = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('PreCompact'),
    trigger: compactTrigger,
    /** The instructions given with a manual compaction (`/compact focus on tests`); null for `auto`. */
    custom_instructions: z.string().nullable(),
  }),
  output: z.strictObject({ ...commonOutput, ...blockDecision }),
  matchField: 'trigger',
  failClosed: true,
  merge: blockingRule,
  example: () => ({ trigger: 'manual', custom_instructions: null }),
});

/** After a compaction, for observers: nothing it answers changes the run. */
export const PostCompact = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('PostCompact'),
    trigger: compactTrigger,
    /** The summarizer's whole answer, `<analysis>` included. */
    compact_summary: z.string(),
  }),
  output: z.strictObject(commonOutput),
  matchField: 'trigger',
  merge: observerRule,
  example: () => ({ trigger: 'manual', compact_summary: '' }),
});
