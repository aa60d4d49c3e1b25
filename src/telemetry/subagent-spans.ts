import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { RunEvent } from '../loop/run-events.js';
import { agentSpans, type AgentSpans } from './agent-spans.js';
import { spanContextOf } from './traceparent.js';

/** One subagent's `invoke_agent` span and the spans of its own turns under it. */
export interface SubagentSpan {
  readonly span: Span;
  readonly spans: AgentSpans;
}

/** The open subagents of a traced run, by agent id. */
export interface SubagentSpans {
  /** Makes or ends the spans of `subagent_started`, `subagent_event` and `subagent_finished`; false for any other event. */
  readonly handle: (event: RunEvent) => boolean;
  readonly get: (agentId: string) => SubagentSpan | undefined;
  /** Ends every subagent still open (its prompt ended first). */
  readonly close: () => void;
}

/**
 * The spans of a run's subagents, as the GenAI conventions draw an agent called as a tool:
 * `invoke_agent <agent type>` (`gen_ai.operation.name=invoke_agent`, `gen_ai.agent.name`,
 * `gen_ai.agent.id`) under the Agent call that started it (`callSpan` finds the parent's
 * `execute_tool Agent`), or under the span an agent hook's `traceparent` names; its `chat` and
 * `execute_tool` spans (agent-spans.ts) under it. A subagent's events seen without its start
 * (an events order this code does not expect) get a span under the prompt.
 */
export function subagentSpans(
  tracer: Tracer,
  conversation: Attributes,
  callSpan: (toolUseId: string | undefined) => Span,
): SubagentSpans {
  const open = new Map<string, SubagentSpan>();

  const begin = (agentId: string, agentType: string, parent: Context, prompt?: string): SubagentSpan => {
    const span = tracer.startSpan(
      `invoke_agent ${agentType}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': agentType,
          'gen_ai.agent.id': agentId,
          'hookloop.agent.id': agentId,
          ...conversation,
          ...(prompt !== undefined ? { 'hookloop.agent.prompt': firstLine(prompt) } : {}),
        },
      },
      parent,
    );
    const entry = {
      span,
      spans: agentSpans((name, under, attributes, kind = SpanKind.INTERNAL, startTime) =>
        tracer.startSpan(
          name,
          {
            kind,
            attributes: { ...attributes, 'hookloop.agent.id': agentId },
            ...(startTime !== undefined ? { startTime } : {}),
          },
          trace.setSpan(ROOT_CONTEXT, under ?? span),
        ),
      ),
    };
    open.set(agentId, entry);
    return entry;
  };
  const parentOf = (toolUseId: string | undefined, traceparent: string | undefined): Context => {
    const remote = traceparent !== undefined ? spanContextOf(traceparent) : undefined;
    return remote !== undefined
      ? trace.setSpanContext(ROOT_CONTEXT, remote)
      : trace.setSpan(ROOT_CONTEXT, callSpan(toolUseId));
  };
  const end = (agentId: string, terminalReason?: string, isError = false) => {
    const entry = open.get(agentId);
    if (entry === undefined) return;
    open.delete(agentId);
    entry.spans.close();
    if (terminalReason !== undefined) entry.span.setAttribute('hookloop.terminal_reason', terminalReason);
    if (isError) entry.span.setStatus({ code: SpanStatusCode.ERROR, message: terminalReason ?? 'error' });
    entry.span.end();
  };

  const handle = (event: RunEvent): boolean => {
    switch (event.type) {
      case 'subagent_started':
        end(event.agentId);
        begin(event.agentId, event.agentType, parentOf(event.toolUseId, event.traceparent), event.prompt);
        return true;
      case 'subagent_event':
        (
          open.get(event.agentId) ?? begin(event.agentId, event.agentType, parentOf(undefined, undefined))
        ).spans.handle(event.event);
        return true;
      case 'subagent_finished':
        end(event.agentId, event.terminalReason, event.isError);
        return true;
      default:
        return false;
    }
  };
  const close = () => {
    for (const agentId of [...open.keys()]) end(agentId, 'unfinished', true);
  };
  return { handle, get: (agentId) => open.get(agentId), close };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
