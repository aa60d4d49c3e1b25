import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { RunEvent, RunObserver } from '../loop/run-events.js';
import { agentSpans, type AgentSpans } from './agent-spans.js';
import { hookOutcomeAttributes, hookStartAttributes } from './hook-attributes.js';
import { subagentSpans, type SubagentSpans } from './subagent-spans.js';
import { traceparentOf } from './traceparent.js';

/** The instrumentation scope of hookloop's spans. */
export const TRACER_NAME = 'hookloop';

/** What a traced run needs: the observer that makes the spans, and the traceparent of an open span. */
export interface RunTracer {
  readonly observer: RunObserver;
  /** The `traceparent` of the span opened for a hook invocation id or a tool call id (its execution while it runs; of subagent `agentId`'s calls when given). */
  readonly traceparent: (key: string, agentId?: string) => string | undefined;
}

/**
 * Turns a run's events into OpenTelemetry spans (GenAI semantic conventions where they exist,
 * `hookloop.` attributes elsewhere):
 * - `hookloop.session` (one trace per session: SessionStart, SessionEnd and other hooks outside a prompt);
 * - `invoke_agent hookloop` per prompt, the root of its own trace (linked to the session span);
 * - `chat <model>` per model request (request/response model, tokens, finish reasons);
 * - `execute_tool <tool>` per call (`gen_ai.tool.name`, `gen_ai.tool.call.id`) with children
 *   `permission <tool>` (the decision and who made it) and `run <tool>` (content checks and the handler);
 * - `invoke_agent <agent type>` per subagent, under the Agent call that started it (an agent hook's:
 *   under the hook's span), with the subagent's own `chat` and `execute_tool` spans under it;
 * - `hook <event>` per handler, under the call it belongs to (the permission span for
 *   PermissionRequest and PermissionDecision), else under its subagent, the prompt or the session.
 * Spans are made from events, so the loop does not depend on OpenTelemetry. Never throws for
 * events in an unexpected order: a span without its parent falls back to the next one up.
 */
export function createRunTracer(sessionId: string, tracer: Tracer = trace.getTracer(TRACER_NAME)): RunTracer {
  let session: Span | undefined;
  let prompt: Span | undefined;
  const hooks = new Map<string, Span>();

  const conversation = { 'gen_ai.conversation.id': sessionId };
  const sessionSpan = (): Span =>
    (session ??= tracer.startSpan('hookloop.session', {
      root: true,
      attributes: { ...conversation, 'gen_ai.agent.name': TRACER_NAME },
    }));
  const start = (
    name: string,
    parent: Span | undefined,
    attributes: Attributes,
    kind = SpanKind.INTERNAL,
    startTime?: number,
  ) =>
    tracer.startSpan(
      name,
      { kind, attributes, ...(startTime !== undefined ? { startTime } : {}) },
      trace.setSpan(ROOT_CONTEXT, parent ?? prompt ?? sessionSpan()),
    );
  const main: AgentSpans = agentSpans(start);
  const subagents: SubagentSpans = subagentSpans(
    tracer,
    conversation,
    (toolUseId) =>
      (toolUseId !== undefined ? main.callSpan(toolUseId) : undefined) ?? prompt ?? sessionSpan(),
  );

  /** The span a hook belongs under: its call's (in its subagent, when it ran in one), else its subagent's, else the prompt's or the session's. */
  const hookParent = (event: {
    readonly event: string;
    readonly toolUseId?: string;
    readonly matchValue: string | undefined;
    readonly agentId?: string;
  }): Span | undefined => {
    const subagent = event.agentId !== undefined ? subagents.get(event.agentId) : undefined;
    if (subagent !== undefined)
      return subagent.spans.hookParent(event.event, event.toolUseId, event.matchValue) ?? subagent.span;
    return main.hookParent(event.event, event.toolUseId, event.matchValue);
  };
  const agentAttributes = (agentId: string | undefined): Attributes =>
    agentId !== undefined ? { 'hookloop.agent.id': agentId } : {};

  const observer: RunObserver = (event: RunEvent) => {
    if (main.handle(event) || subagents.handle(event)) return;
    switch (event.type) {
      case 'prompt_started':
        main.close();
        prompt?.end();
        prompt = tracer.startSpan('invoke_agent hookloop', {
          root: true,
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': TRACER_NAME,
            ...conversation,
            'hookloop.prompt.id': event.promptId,
          },
          links: [{ context: sessionSpan().spanContext() }],
        });
        return;
      case 'prompt_finished':
        subagents.close();
        main.close();
        prompt?.setAttribute('hookloop.terminal_reason', event.terminalReason);
        if (event.isError) prompt?.setStatus({ code: SpanStatusCode.ERROR, message: event.terminalReason });
        prompt?.end();
        prompt = undefined;
        return;
      case 'session_ended':
        for (const span of hooks.values()) span.end();
        hooks.clear();
        sessionSpan().setAttribute('hookloop.session.end_reason', event.reason);
        sessionSpan().end();
        return;
      case 'hook_handler_started':
        hooks.set(
          event.invocation,
          start(`hook ${event.event}`, hookParent(event), {
            ...hookStartAttributes(event.event, event.matcher, event.origin, event.background),
            ...agentAttributes(event.agentId),
          }),
        );
        return;
      case 'hook_outcome': {
        let span = event.invocation !== undefined ? hooks.get(event.invocation) : undefined;
        if (event.invocation !== undefined) hooks.delete(event.invocation);
        // Callbacks report only their outcome: the span is made from its duration.
        span ??= start(
          `hook ${event.event}`,
          hookParent(event),
          {
            ...hookStartAttributes(event.event, undefined, event.outcome.origin, false),
            ...agentAttributes(event.agentId),
          },
          SpanKind.INTERNAL,
          Date.now() - event.outcome.durationMs,
        );
        span.setAttributes(hookOutcomeAttributes(event.outcome));
        if (event.outcome.status === 'failed' || event.outcome.status === 'timeout')
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: event.outcome.error ?? event.outcome.status,
          });
        span.end();
        return;
      }
      default:
        return;
    }
  };

  const traceparent = (key: string, agentId?: string): string | undefined => {
    const spans = agentId !== undefined ? subagents.get(agentId)?.spans : main;
    return traceparentOf(spans?.callSpan(key, true) ?? hooks.get(key));
  };
  return { observer, traceparent };
}
