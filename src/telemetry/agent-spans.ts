import { SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import type { RunEvent } from '../loop/run-events.js';
import { decisionAttributes } from './hook-attributes.js';

/** Starts a span under `parent` (undefined: the agent's root span); `startTime` in ms since the epoch. */
export type SpanStarter = (
  name: string,
  parent: Span | undefined,
  attributes: Attributes,
  kind?: SpanKind,
  startTime?: number,
) => Span;

/** One tool call's spans: `execute_tool`, then its permission and execution children. */
interface ToolSpans {
  readonly name: string;
  readonly span: Span;
  permission?: Span;
  execution?: Span;
}

/**
 * The spans of one agent's turns, the main agent's or a subagent's: `chat <model>` per model
 * request and `execute_tool <tool>` per call with its `permission <tool>` and `run <tool>`
 * children, all under the agent's root span (the prompt's `invoke_agent hookloop`, or the
 * subagent's `invoke_agent <type>`). Kept per agent because a subagent's call ids are its own.
 */
export interface AgentSpans {
  /** Makes or ends the spans of a model, tool or permission event; false for any other event. */
  readonly handle: (event: RunEvent) => boolean;
  /** The span a hook of `event` for call `toolUseId` (or tool `toolName`, for PermissionRequest) belongs under; undefined: the root. */
  readonly hookParent: (
    event: string,
    toolUseId: string | undefined,
    toolName: string | undefined,
  ) => Span | undefined;
  /** The `execute_tool` span of call `toolUseId` while it is open; with `running`, its `run` span while the handler runs. */
  readonly callSpan: (toolUseId: string, running?: boolean) => Span | undefined;
  /** Ends what is still open (an unanswered request, calls without a result). */
  readonly close: () => void;
}

/** The spans of one agent's model requests and tool calls, started with `start` (see AgentSpans). Never throws for events out of order. */
export function agentSpans(start: SpanStarter): AgentSpans {
  let chat: Span | undefined;
  const tools = new Map<string, ToolSpans>();

  const endExecution = (call: ToolSpans) => {
    call.execution?.end();
    call.execution = undefined;
  };
  const endChat = (status?: string) => {
    if (status !== undefined) chat?.setStatus({ code: SpanStatusCode.ERROR, message: status });
    chat?.end();
    chat = undefined;
  };
  const permissionSpan = (call: ToolSpans, toolName: string, toolUseId: string, startTime?: number) =>
    (call.permission ??= start(
      `permission ${toolName}`,
      call.span,
      { 'gen_ai.tool.name': toolName, 'gen_ai.tool.call.id': toolUseId },
      SpanKind.INTERNAL,
      startTime,
    ));

  const handle = (event: RunEvent): boolean => {
    switch (event.type) {
      case 'model_request':
        endChat('no answer');
        chat = start(
          `chat ${event.model ?? ''}`.trim(),
          undefined,
          {
            'gen_ai.operation.name': 'chat',
            ...(event.model !== undefined ? { 'gen_ai.request.model': event.model } : {}),
            'hookloop.turn': event.turn,
          },
          SpanKind.CLIENT,
        );
        return true;
      case 'model_response':
        chat?.setAttributes({
          'gen_ai.usage.input_tokens': event.usage.inputTokens,
          'gen_ai.usage.output_tokens': event.usage.outputTokens,
          ...(event.model !== undefined ? { 'gen_ai.response.model': event.model } : {}),
          ...(event.stopReason ? { 'gen_ai.response.finish_reasons': [event.stopReason] } : {}),
          'hookloop.tool_calls': event.toolCalls,
        });
        endChat();
        return true;
      case 'tool_started':
        tools.set(event.toolUseId, {
          name: event.toolName,
          span: start(`execute_tool ${event.toolName}`, undefined, {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': event.toolName,
            'gen_ai.tool.call.id': event.toolUseId,
          }),
        });
        return true;
      case 'permission': {
        const call = tools.get(event.toolUseId);
        if (call !== undefined)
          permissionSpan(call, event.toolName, event.toolUseId).addEvent('hookloop.permission.step', {
            'hookloop.permission.behavior': event.behavior,
            'hookloop.permission.source': event.source,
          });
        return true;
      }
      case 'permission_decision': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return true;
        const span = permissionSpan(call, event.toolName, event.toolUseId, Date.now() - event.durationMs);
        span.setAttributes(decisionAttributes(event.record));
        call.span.setAttributes({
          'hookloop.permission.decision': event.record.decision,
          'hookloop.permission.decided_by': event.record.decidedBy,
        });
        if (event.record.decision === 'deny')
          span.setStatus({ code: SpanStatusCode.ERROR, message: event.record.reason ?? 'denied' });
        // PermissionDecision hooks still run under it; it ends when the call runs or ends.
        return true;
      }
      case 'input_rewritten':
        tools.get(event.toolUseId)?.span.addEvent('hookloop.rewrite', { 'hookloop.rewrite.by': event.by });
        tools.get(event.toolUseId)?.span.setAttribute(`hookloop.rewritten_by.${event.by}`, true);
        return true;
      case 'tool_executing': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return true;
        call.permission?.end();
        call.execution = start(`run ${event.toolName}`, call.span, {
          'gen_ai.tool.name': event.toolName,
          'gen_ai.tool.call.id': event.toolUseId,
        });
        return true;
      }
      case 'tool_result': {
        const call = tools.get(event.toolUseId);
        if (call === undefined) return true;
        tools.delete(event.toolUseId);
        endExecution(call);
        call.permission?.end();
        call.span.setAttribute('hookloop.tool.ran', event.ran);
        if (event.result.isError)
          call.span.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(event.result.content) });
        call.span.end();
        return true;
      }
      default:
        return false;
    }
  };

  const hookParent = (
    event: string,
    toolUseId: string | undefined,
    toolName: string | undefined,
  ): Span | undefined => {
    let call = toolUseId !== undefined ? tools.get(toolUseId) : undefined;
    // PermissionRequest carries no tool_use_id: it belongs to the call of that tool whose permission is being decided.
    if (call === undefined && event === 'PermissionRequest')
      call = [...tools.values()].find((entry) => entry.name === toolName && entry.permission !== undefined);
    if (call === undefined) return undefined;
    if (event === 'PermissionRequest' || event === 'PermissionDecision') return call.permission ?? call.span;
    if (event === 'PostToolUse' || event === 'PostToolUseFailure') endExecution(call);
    return call.span;
  };

  const callSpan = (toolUseId: string, running = false): Span | undefined => {
    const call = tools.get(toolUseId);
    return (running ? call?.execution : undefined) ?? call?.span;
  };

  const close = () => {
    endChat('no answer');
    for (const call of tools.values()) call.span.end();
    tools.clear();
  };
  return { handle, hookParent, callSpan, close };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
