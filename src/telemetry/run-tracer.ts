import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { RunEvent, RunObserver } from '../loop/run-events.js';
import { decisionAttributes, hookOutcomeAttributes, hookStartAttributes } from './hook-attributes.js';
import { traceparentOf } from './traceparent.js';

/** The instrumentation scope of hookloop's spans. */
export const TRACER_NAME = 'hookloop';

/** What a traced run needs: the observer that makes the spans, and the traceparent of an open span. */
export interface RunTracer {
  readonly observer: RunObserver;
  /** The `traceparent` of the span opened for a hook invocation id or a tool call id (its execution while it runs). */
  readonly traceparent: (key: string) => string | undefined;
}

/** One tool call's spans: `execute_tool`, then its permission and execution children. */
interface ToolSpans {
  readonly name: string;
  readonly span: Span;
  permission?: Span;
  execution?: Span;
}

/**
 * Turns a run's events into OpenTelemetry spans (GenAI semantic conventions where they exist,
 * `hookloop.` attributes elsewhere):
 * - `hookloop.session` (one trace per session: SessionStart, SessionEnd and other hooks outside a prompt);
 * - `invoke_agent hookloop` per prompt, the root of its own trace (linked to the session span);
 * - `chat <model>` per model request (request/response model, tokens, finish reasons);
 * - `execute_tool <tool>` per call (`gen_ai.tool.name`, `gen_ai.tool.call.id`) with children
 *   `permission <tool>` (the decision and who made it) and `run <tool>` (content checks and the handler);
 * - `hook <event>` per handler, under the call it belongs to (the permission span for
 *   PermissionRequest and PermissionDecision), else under the prompt or the session.
 * Spans are made from events, so the loop does not depend on OpenTelemetry. Never throws for
 * events in an unexpected order: a span without its parent falls back to the next one up.
 */
export function createRunTracer(sessionId: string, tracer: Tracer = trace.getTracer(TRACER_NAME)): RunTracer {
  let session: Span | undefined;
  let prompt: Span | undefined;
  let chat: Span | undefined;
  const tools = new Map<string, ToolSpans>();
  const hooks = new Map<string, Span>();

  const conversation = { 'gen_ai.conversation.id': sessionId };
  const sessionSpan = (): Span => (session ??= tracer.startSpan('hookloop.session', { root: true, attributes: { ...conversation, 'gen_ai.agent.name': TRACER_NAME } }));
  const under = (parent: Span | undefined) => trace.setSpan(ROOT_CONTEXT, parent ?? prompt ?? sessionSpan());
  const start = (name: string, parent: Span | undefined, attributes: Attributes, kind = SpanKind.INTERNAL, startTime?: number) =>
    tracer.startSpan(name, { kind, attributes, ...(startTime !== undefined ? { startTime } : {}) }, under(parent));

  /** The span a hook of `event` for call `toolUseId` (or tool `toolName`, for PermissionRequest) belongs under. */
  const hookParent = (event: string, toolUseId: string | undefined, toolName: string | undefined): Span | undefined => {
    let call = toolUseId !== undefined ? tools.get(toolUseId) : undefined;
    // PermissionRequest carries no tool_use_id: it belongs to the call of that tool whose permission is being decided.
    if (call === undefined && event === 'PermissionRequest') call = [...tools.values()].find((entry) => entry.name === toolName && entry.permission !== undefined);
    if (call === undefined) return undefined;
    if (event === 'PermissionRequest' || event === 'PermissionDecision') return call.permission ?? call.span;
    if (event === 'PostToolUse' || event === 'PostToolUseFailure') endExecution(call);
    return call.span;
  };
  const endExecution = (call: ToolSpans) => {
    call.execution?.end();
    call.execution = undefined;
  };
  const endChat = (status?: string) => {
    if (status !== undefined) chat?.setStatus({ code: SpanStatusCode.ERROR, message: status });
    chat?.end();
    chat = undefined;
  };

  const observer: RunObserver = (event: RunEvent) => {
    switch (event.type) {
      case 'prompt_started':
        endChat();
        prompt?.end();
        prompt = tracer.startSpan('invoke_agent hookloop', {
          root: true,
          kind: SpanKind.INTERNAL,
          attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': TRACER_NAME, ...conversation, 'hookloop.prompt.id': event.promptId },
          links: [{ context: sessionSpan().spanContext() }],
        });
        return;
      case 'prompt_finished':
        endChat('no answer');
        for (const call of tools.values()) call.span.end();
        tools.clear();
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
      case 'model_request':
        endChat('no answer');
        chat = start(`chat ${event.model ?? ''}`.trim(), prompt, { 'gen_ai.operation.name': 'chat', ...(event.model !== undefined ? { 'gen_ai.request.model': event.model } : {}), 'hookloop.turn': event.turn }, SpanKind.CLIENT);
        return;
      case 'model_response':
        chat?.setAttributes({
          'gen_ai.usage.input_tokens': event.usage.inputTokens,
          'gen_ai.usage.output_tokens': event.usage.outputTokens,
          ...(event.model !== undefined ? { 'gen_ai.response.model': event.model } : {}),
          ...(event.stopReason ? { 'gen_ai.response.finish_reasons': [event.stopReason] } : {}),
          'hookloop.tool_calls': event.toolCalls,
        });
        endChat();
        return;
      case 'tool_started':
        tools.set(event.toolUseId, {
          name: event.toolName,
          span: start(`execute_tool ${event.toolName}`, prompt, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': event.toolName, 'gen_ai.tool.call.id': event.toolUseId }),
        });
        return;
      case 'permission': {
        const call = tools.get(event.toolUseId);
        if (call !== undefined && call.permission === undefined) call.permission = start(`permission ${event.toolName}`, call.span, { 'gen_ai.tool.name': event.toolName, 'gen_ai.tool.call.id': event.toolUseId });
        call?.permission?.addEvent('hookloop.permission.step', { 'hookloop.permission.behavior': event.behavior, 'hookloop.permission.source': event.source });
        return;
      }
      case 'permission_decision': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return;
        const span = call.permission ?? start(`permission ${event.toolName}`, call.span, { 'gen_ai.tool.name': event.toolName, 'gen_ai.tool.call.id': event.toolUseId }, SpanKind.INTERNAL, Date.now() - event.durationMs);
        call.permission = span;
        const attributes = decisionAttributes(event.record);
        span.setAttributes(attributes);
        call.span.setAttributes({ 'hookloop.permission.decision': event.record.decision, 'hookloop.permission.decided_by': event.record.decidedBy });
        if (event.record.decision === 'deny') span.setStatus({ code: SpanStatusCode.ERROR, message: event.record.reason ?? 'denied' });
        // PermissionDecision hooks still run under it; it ends when the call runs or ends.
        return;
      }
      case 'input_rewritten':
        tools.get(event.toolUseId)?.span.addEvent('hookloop.rewrite', { 'hookloop.rewrite.by': event.by });
        tools.get(event.toolUseId)?.span.setAttribute(`hookloop.rewritten_by.${event.by}`, true);
        return;
      case 'tool_executing': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return;
        call.permission?.end();
        call.execution = start(`run ${event.toolName}`, call.span, { 'gen_ai.tool.name': event.toolName, 'gen_ai.tool.call.id': event.toolUseId });
        return;
      }
      case 'tool_result': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return;
        tools.delete(event.toolUseId);
        endExecution(call);
        call.permission?.end();
        call.span.setAttribute('hookloop.tool.ran', event.ran);
        if (event.result.isError) call.span.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(event.result.content) });
        call.span.end();
        return;
      }
      case 'hook_handler_started':
        hooks.set(event.invocation, start(`hook ${event.event}`, hookParent(event.event, event.toolUseId, event.matchValue), { ...hookStartAttributes(event.event, event.matcher, event.origin, event.background), ...(event.agentId !== undefined ? { 'hookloop.agent.id': event.agentId } : {}) }));
        return;
      case 'hook_outcome': {
        let span = event.invocation !== undefined ? hooks.get(event.invocation) : undefined;
        if (event.invocation !== undefined) hooks.delete(event.invocation);
        // Callbacks and a subagent's hooks report only their outcome: the span is made from its duration.
        span ??= start(`hook ${event.event}`, hookParent(event.event, event.toolUseId, event.matchValue), { ...hookStartAttributes(event.event, undefined, event.outcome.origin, false), ...(event.agentId !== undefined ? { 'hookloop.agent.id': event.agentId } : {}) }, SpanKind.INTERNAL, Date.now() - event.outcome.durationMs);
        span.setAttributes(hookOutcomeAttributes(event.outcome));
        if (event.outcome.status === 'failed' || event.outcome.status === 'timeout') span.setStatus({ code: SpanStatusCode.ERROR, message: event.outcome.error ?? event.outcome.status });
        span.end();
        return;
      }
      default:
        return;
    }
  };

  const traceparent = (key: string): string | undefined => {
    const call = tools.get(key);
    return traceparentOf(call !== undefined ? (call.execution ?? call.span) : hooks.get(key));
  };
  return { observer, traceparent };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
