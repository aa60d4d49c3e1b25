import { decisionPayload } from '../loop/permission-decision/report.js';
import type { RunEvent, RunObserver } from '../loop/run-events.js';
import type { Message } from '../messages/messages.js';
import { partialMessageTranslator } from './partial-messages.js';

/**
 * `-p` text mode: prints the assistant's text to stdout as it streams in, each turn's text on its
 * own lines. `alreadyPrinted(result)` tells the CLI whether the run's final `result` is the text
 * it just streamed (then it is not printed again); a provider that does not stream (the scripted
 * model) prints nothing here and the CLI prints the result at the end, as before.
 */
export function textStreamPrinter(write: (text: string) => void): {
  observer: RunObserver;
  alreadyPrinted: (result: string) => boolean;
} {
  let turnText = '';
  let lastTurnText: string | undefined;
  const observer: RunObserver = (event) => {
    if (event.type !== 'model_stream') return;
    const stream = event.event;
    if (stream.type === 'message_start') turnText = '';
    else if (stream.type === 'text_delta') {
      turnText += stream.text;
      write(stream.text);
    } else if (stream.type === 'message_stop') {
      if (turnText && !turnText.endsWith('\n')) write('\n');
      lastTurnText = turnText;
    }
  };
  return { observer, alreadyPrinted: (result) => result !== '' && result === lastTurnText };
}

/**
 * `--output-format stream-json`: one JSON object per line, in the spirit of Claude Code's
 * stream-json: with `partialMessages` (`--include-partial-messages`), `{"type":"stream_event",
 * "event":…}` for each streamed delta, as Messages API events (see partialMessageTranslator);
 * `{"type":"assistant","message":…}`
 * when an assistant message is complete (text and `tool_use` blocks), `{"type":"user","message":…}`
 * for each tool result (`tool_result` block) and loop-built user text, `{"type":"system",
 * "subtype":…}` for hook context, hook responses, permission steps, the final `permission_decision`
 * (who decided and why: the PermissionDecision payload's fields), hook messages and warnings.
 * The CLI writes the `init` line before and the `result` line after. Every line carries `session_id`.
 */
export function streamJsonWriter(
  write: (line: string) => void,
  sessionId: string,
  options: { readonly partialMessages?: boolean } = {},
): RunObserver {
  const emit = (value: Record<string, unknown>) =>
    write(`${JSON.stringify({ ...value, session_id: sessionId })}\n`);
  const partial = options.partialMessages === true ? partialMessageTranslator() : undefined;
  return (event: RunEvent) => {
    if (event.type === 'model_stream') {
      for (const line of partial?.(event.event) ?? []) emit(line);
      return;
    }
    const line = streamJsonLine(event);
    if (line) emit(line);
  };
}

function streamJsonLine(event: RunEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'message':
      return messageLine(event.message);
    case 'hook_outcome': {
      const { outcome } = event;
      return {
        type: 'system',
        subtype: 'hook_response',
        hook_event_name: event.event,
        ...(event.matchValue !== undefined ? { match: event.matchValue } : {}),
        hook: outcome.origin.text,
        status: outcome.status,
        output: outcome.output,
        ...(outcome.blockMessage !== undefined ? { block_message: outcome.blockMessage } : {}),
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      };
    }
    case 'permission':
      return {
        type: 'system',
        subtype: 'permission',
        tool_name: event.toolName,
        tool_use_id: event.toolUseId,
        behavior: event.behavior,
        source: event.source,
      };
    case 'permission_decision':
      return {
        type: 'system',
        subtype: 'permission_decision',
        tool_name: event.toolName,
        tool_use_id: event.toolUseId,
        ...decisionPayload(event.record),
        duration_ms: Math.round(event.durationMs),
      };
    case 'system_message':
      return { type: 'system', subtype: 'hook_message', text: event.text };
    case 'warning':
      return { type: 'system', subtype: 'warning', text: event.text };
    case 'mcp_notice':
      return {
        type: 'system',
        subtype: event.kind === 'log' ? 'mcp_log' : 'mcp_progress',
        server: event.server,
        text: event.text,
        ...(event.level !== undefined ? { level: event.level } : {}),
        ...(event.toolUseId !== undefined ? { tool_use_id: event.toolUseId } : {}),
      };
    case 'hook_started':
    case 'model_stream':
    case 'model_request':
    case 'model_response':
    case 'input_rewritten':
    case 'tool_result':
      return undefined;
  }
}

function messageLine(message: Message): Record<string, unknown> {
  switch (message.role) {
    case 'assistant':
      return {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            ...(message.text ? [{ type: 'text', text: message.text }] : []),
            ...message.toolCalls.map((call) => ({
              type: 'tool_use',
              id: call.id,
              name: call.name,
              input: call.input,
            })),
          ],
        },
      };
    case 'tool':
      return {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: message.toolCallId,
              content: message.content,
              is_error: message.isError,
            },
          ],
        },
      };
    case 'user':
      return { type: 'user', message: { role: 'user', content: [{ type: 'text', text: message.content }] } };
    case 'system':
      return { type: 'system', subtype: 'context', text: message.content };
  }
}
