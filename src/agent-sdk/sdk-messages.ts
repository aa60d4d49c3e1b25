import { randomUUID } from 'node:crypto';
import type { RunEvent } from '../loop/run-events.js';
import type { Message } from '../messages/messages.js';
import type { RunResult } from '../run/run-options.js';
import { resultJson } from '../cli/result-json.js';
import type { PermissionMode } from './sdk-types.js';

/*
 * The messages `query()` yields, by the Agent SDK's names and shapes (its `SDKMessage` union, the
 * members hookloop produces), and their making from a run's events.
 */

/** A content block of a message, as the Messages API spells it (`text`, `tool_use`, `tool_result`). */
export type ContentBlock = { readonly type: string; readonly [field: string]: unknown };

/** A content block of a user message, by the Messages API's field names. */
export interface ContentBlockParam {
  readonly type: string;
  readonly text?: string;
  readonly tool_use_id?: string;
  readonly content?: unknown;
  readonly is_error?: boolean;
  readonly source?: unknown;
  readonly cache_control?: unknown;
}

/** The first message: the session as it starts. */
export interface SDKSystemMessage {
  readonly type: 'system';
  readonly subtype: 'init';
  readonly session_id: string;
  readonly uuid: string;
  readonly cwd: string;
  readonly tools: readonly string[];
  readonly mcp_servers: readonly { readonly name: string; readonly status: string }[];
  readonly model: string;
  readonly permissionMode: PermissionMode;
  readonly agents: readonly string[];
  readonly apiKeySource: 'none';
  readonly slash_commands: readonly string[];
  readonly output_style: 'default';
  readonly skills: readonly string[];
  readonly plugins: readonly { readonly name: string; readonly path: string }[];
}

/** One content block of a model answer (the SDK sends each block as its own message). */
export interface SDKAssistantMessage {
  readonly type: 'assistant';
  readonly message: {
    readonly id: string;
    readonly type: 'message';
    readonly role: 'assistant';
    readonly model: string;
    readonly content: readonly ContentBlock[];
    readonly stop_reason: string | null;
    readonly stop_sequence: null;
  };
  readonly parent_tool_use_id: string | null;
  readonly uuid: string;
  readonly session_id: string;
}

/** A user turn: a prompt (streaming input) or one tool call's paired result. */
export interface SDKUserMessage {
  readonly type: 'user';
  /** The Messages API's user message (`role` is `user`); hookloop sends the text blocks of a prompt. */
  readonly message: { readonly role: string; readonly content: string | readonly ContentBlockParam[] };
  readonly parent_tool_use_id: string | null;
  readonly uuid?: string;
  readonly session_id?: string;
  readonly isSynthetic?: boolean;
  readonly [field: string]: unknown;
}

/** A streamed delta (`includePartialMessages`), as a Messages API stream event. */
export interface SDKPartialAssistantMessage {
  readonly type: 'stream_event';
  readonly event: { readonly type: string; readonly [field: string]: unknown };
  readonly parent_tool_use_id: string | null;
  readonly uuid: string;
  readonly session_id: string;
}

/** The end of a prompt's turn. `result` only on `success`; `errors` on the others. */
export interface SDKResultMessage {
  readonly type: 'result';
  readonly subtype: 'success' | 'error_max_turns' | 'error_during_execution' | 'error_max_budget_usd';
  readonly is_error: boolean;
  readonly result?: string;
  readonly errors?: readonly string[];
  readonly duration_ms: number;
  readonly duration_api_ms: number;
  readonly num_turns: number;
  readonly stop_reason: string | null;
  /** Priced from hookloop's table of Anthropic list prices; 0 for a model it has no price for. */
  readonly total_cost_usd: number;
  readonly usage: {
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cache_creation_input_tokens: number;
    readonly cache_read_input_tokens: number;
  };
  readonly modelUsage: Readonly<Record<string, unknown>>;
  readonly permission_denials: readonly unknown[];
  readonly terminal_reason?: string;
  readonly uuid: string;
  readonly session_id: string;
}

/** Every message `query()` yields. */
export type SDKMessage =
  SDKSystemMessage | SDKAssistantMessage | SDKUserMessage | SDKPartialAssistantMessage | SDKResultMessage;

/**
 * Translates a run's events into SDK messages for one session: each complete assistant message as
 * one `assistant` message per content block (text first, then each tool_use, as the SDK sends
 * them), each paired tool result as a `user` message; with `partial`, the translator of streamed
 * deltas (`stream_event`). Other events (hook context, warnings, the loop's own user text) make none.
 */
export function sdkMessageTranslator(
  sessionId: () => string,
  model: () => string,
  partial:
    ((event: Extract<RunEvent, { type: 'model_stream' }>['event']) => Record<string, unknown>[]) | undefined,
): (event: RunEvent) => SDKMessage[] {
  let stopReason: string | null = null;
  return (event) => {
    if (event.type === 'model_stream')
      return (partial?.(event.event) ?? []).map(
        (line) => ({ ...line, session_id: sessionId() }) as unknown as SDKPartialAssistantMessage,
      );
    if (event.type === 'model_response') stopReason = event.stopReason ?? null;
    if (event.type !== 'message') return [];
    return fromMessage(event.message, sessionId(), model(), stopReason);
  };
}

function fromMessage(
  message: Message,
  sessionId: string,
  model: string,
  stopReason: string | null,
): SDKMessage[] {
  switch (message.role) {
    case 'assistant': {
      const id = `msg_${randomUUID().replaceAll('-', '')}`;
      const blocks: ContentBlock[] = [
        ...(message.text ? [{ type: 'text', text: message.text }] : []),
        ...message.toolCalls.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: call.input,
        })),
      ];
      return blocks.map((block) => ({
        type: 'assistant',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [block],
          stop_reason: stopReason,
          stop_sequence: null,
        },
        parent_tool_use_id: null,
        uuid: randomUUID(),
        session_id: sessionId,
      }));
    }
    case 'tool':
      return [
        {
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
          parent_tool_use_id: null,
          uuid: randomUUID(),
          session_id: sessionId,
        },
      ];
    case 'user':
    case 'system':
      return [];
  }
}

/** The `result` message of a finished prompt (Claude Code's result JSON, with the SDK's `uuid` and `errors`). */
export function resultMessage(run: RunResult): SDKResultMessage {
  const json = resultJson(run) as Record<string, unknown>;
  const subtype = json['subtype'] as SDKResultMessage['subtype'];
  const { result, errors, api_error_status: _status, ...rest } = json;
  return {
    ...(rest as unknown as Omit<SDKResultMessage, 'uuid' | 'duration_api_ms' | 'total_cost_usd'>),
    ...(subtype === 'success'
      ? { result: result as string }
      : { errors: (errors as string[] | undefined) ?? (result ? [result as string] : []) }),
    total_cost_usd: (json['total_cost_usd'] as number | null) ?? 0,
    duration_api_ms: run.durationMs,
    uuid: randomUUID(),
  };
}
