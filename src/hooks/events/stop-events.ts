import { z } from 'zod';
import { blockingRule } from '../merge/blocking.js';
import { observerRule } from '../merge/rule.js';
import { defineEvent } from './define-event.js';
import {
  blockDecision,
  commonInput,
  commonOutput,
  contextOnly,
  specific,
  withEffort,
  withMode,
} from './fields.js';

/** The events around an agent ending its turn, for the main session (Stop, StopFailure) and for subagents. */

const stopFields = {
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string(),
  background_tasks: z.array(z.unknown()),
  session_crons: z.array(z.unknown()),
};
const stopExample = {
  stop_hook_active: false,
  last_assistant_message: '',
  background_tasks: [],
  session_crons: [],
};

/** A block makes the model take another turn with `Stop hook feedback:\n<reason>` (bounded). */
export const Stop = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    ...withEffort,
    hook_event_name: z.literal('Stop'),
    ...stopFields,
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('Stop', contextOnly),
  }),
  failClosed: true,
  decidesStop: true,
  merge: blockingRule,
  example: () => stopExample,
});

/** The turn ended in an API error; `error` is its category (the matcher value). An abort does not cancel these hooks. */
export const StopFailure = defineEvent({
  input: z.object({
    ...commonInput,
    ...withEffort,
    hook_event_name: z.literal('StopFailure'),
    error: z.string(),
    last_assistant_message: z.string(),
  }),
  output: z.strictObject(commonOutput),
  matchField: 'error',
  outlivesAbort: true,
  merge: observerRule,
  example: () => ({ error: 'unknown', last_assistant_message: '' }),
});

/** `additionalContext` opens the subagent's first system message. `agent_type` is the matcher value. */
export const SubagentStart = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('SubagentStart'),
    agent_id: z.string(),
    agent_type: z.string(),
  }),
  output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('SubagentStart', contextOnly) }),
  matchField: 'agent_type',
  merge: observerRule,
  example: (context) => ({ agent_id: context.agentId, agent_type: 'agent-hook' }),
});

/** Like Stop, for a subagent: a block makes the subagent take another turn. */
export const SubagentStop = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    ...withEffort,
    hook_event_name: z.literal('SubagentStop'),
    agent_id: z.string(),
    agent_type: z.string(),
    agent_transcript_path: z.string(),
    ...stopFields,
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('SubagentStop', contextOnly),
  }),
  matchField: 'agent_type',
  failClosed: true,
  decidesStop: true,
  merge: blockingRule,
  example: (context) => ({
    agent_id: context.agentId,
    agent_type: 'agent-hook',
    stop_hook_active: false,
    agent_transcript_path: '',
    last_assistant_message: '',
    background_tasks: [],
    session_crons: [],
  }),
});
