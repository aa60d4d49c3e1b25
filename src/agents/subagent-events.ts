import type { SubagentIdentity } from '../hooks/payload.js';
import type { RunContext } from '../loop/run-context.js';
import type { RunEvent, RunObserver, SubagentRunEvent } from '../loop/run-events.js';

/*
 * How a subagent's run reaches its parent's observers (the CLI's stderr, the events file, the
 * spans). Its hook starts and outcomes (which already carry `agentId`), system messages,
 * warnings and session-taint changes go as they are; its own model requests, tool calls and decisions go wrapped in
 * `subagent_event`, so an observer of the parent never mistakes them for the parent's (the
 * parent's transcript, `--output-format stream-json`); its messages and stream deltas stay its own.
 */

const AS_THEY_ARE = new Set<RunEvent['type']>([
  'hook_handler_started',
  'hook_outcome',
  'system_message',
  'warning',
  // The taint is the session's (a subagent shares its parent's policy): the parent's transcript keeps it for a resume.
  'session_taint',
]);
const WRAPPED = new Set<RunEvent['type']>([
  'model_request',
  'model_request_sent',
  'model_response',
  'tool_started',
  'permission',
  'permission_decision',
  'input_rewritten',
  'tool_executing',
  'tool_result',
  'calls_pending',
]);

/** The observer of a subagent's run that reports to `parent` (see above). */
export function parentObserver(parent: RunContext, agent: SubagentIdentity): RunObserver {
  return (event: RunEvent) => {
    if (AS_THEY_ARE.has(event.type)) parent.emit(event);
    else if (WRAPPED.has(event.type))
      parent.emit({
        type: 'subagent_event',
        agentId: agent.id,
        agentType: agent.type,
        event: event as SubagentRunEvent,
      });
  };
}

/**
 * Tells the parent's observers a subagent starts: `toolUseId` is the parent's Agent call, or
 * `traceparent` the agent hook's span (so the subagent's spans nest under the hook's).
 */
export function reportSubagentStart(
  parent: RunContext,
  agent: SubagentIdentity,
  prompt: string,
  from: { readonly toolUseId?: string | undefined; readonly traceparent?: string | undefined },
): void {
  parent.emit({
    type: 'subagent_started',
    agentId: agent.id,
    agentType: agent.type,
    prompt,
    ...(from.toolUseId !== undefined ? { toolUseId: from.toolUseId } : {}),
    ...(from.traceparent !== undefined ? { traceparent: from.traceparent } : {}),
  });
}

/** Tells the parent's observers the subagent's loop ended, and how. */
export function reportSubagentEnd(
  parent: RunContext,
  agent: SubagentIdentity,
  end: { readonly terminalReason: string; readonly isError: boolean },
): void {
  parent.emit({
    type: 'subagent_finished',
    agentId: agent.id,
    agentType: agent.type,
    terminalReason: end.terminalReason,
    isError: end.isError,
  });
}

/**
 * The subagent's `traceparent` lookup: its tool calls' spans are kept per subagent (the parent's
 * call ids may repeat inside it), hook invocations are unique in the process.
 */
export function subagentTraceparent(
  parent: RunContext,
  agent: SubagentIdentity,
): { traceparent?: (key: string) => string | undefined } {
  const lookup = parent.traceparent;
  return lookup === undefined ? {} : { traceparent: (key) => lookup(key, agent.id) };
}
