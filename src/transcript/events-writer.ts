import fs from 'node:fs';
import path from 'node:path';
import type { HandlerOutcome } from '../hooks/handler.js';
import type { RunEvent, RunObserver } from '../loop/run-events.js';
import { hookDecision } from '../telemetry/hook-attributes.js';
import { makeDirectorySync } from '../files/make-directory.js';

/** The longest string kept in an events file record (tool outputs, hook stdout); longer ones are cut with a note. */
const MAX_TEXT = 16_000;

/**
 * Where a session's events file goes: next to its transcript, `<session>.events.ndjson` (not
 * `.jsonl`, so nothing that looks for transcripts mistakes it for one).
 */
export function eventsPathFor(transcriptPath: string): string {
  return path.join(path.dirname(transcriptPath), `${path.basename(transcriptPath, '.jsonl')}.events.ndjson`);
}

/**
 * One line of the events file: `t` (ms since the epoch), `type`, and the event's facts. The
 * types: prompt_started, prompt_finished, session_ended, model_request, model_response,
 * tool_started, tool_executing, permission_decision, input_rewritten, tool_result,
 * hook_started, hook_outcome, warning, subagent_started, subagent_finished. A subagent's own
 * events (its model requests, tool calls, decisions) are written as the main agent's are, with its
 * `agentId` and `agentType`. `hookloop timeline` reads it.
 */
export type EventRecord = { readonly t: number; readonly type: string } & Readonly<Record<string, unknown>>;

/**
 * An observer that appends the events a timeline needs to `file`, one JSON line each, as they
 * happen (a running session's file is always readable up to its last line). A write error is
 * reported once through `onError`, and the writer stops.
 */
export function eventsWriter(file: string, onError: (error: Error) => void): RunObserver {
  let broken = false;
  let ready = false;
  return (event: RunEvent) => {
    if (broken) return;
    const record = recordOf(event);
    if (record === undefined) return;
    try {
      if (!ready) {
        makeDirectorySync(path.dirname(file));
        ready = true;
      }
      fs.appendFileSync(file, `${JSON.stringify({ t: Date.now(), ...record })}\n`);
    } catch (error) {
      broken = true;
      onError(
        new Error(
          `events file ${file}: ${(error as Error).message}; the timeline of this session will be incomplete`,
        ),
      );
    }
  };
}

function recordOf(event: RunEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'prompt_started':
      return { type: event.type, promptId: event.promptId, prompt: cut(event.prompt) };
    case 'prompt_finished':
    case 'session_ended':
    case 'tool_executing':
    case 'warning':
    case 'system_message':
      return { ...event };
    case 'input_rewritten':
      return { ...event, ...(event.input !== undefined ? { input: capped(event.input) } : {}) };
    case 'model_request':
      return { type: event.type, turn: event.turn, model: event.model };
    case 'model_response':
      return {
        type: event.type,
        turn: event.turn,
        text: cut(event.text),
        toolCalls: event.toolCalls,
        usage: event.usage,
        model: event.model,
        stopReason: event.stopReason,
      };
    case 'tool_started':
      return {
        type: event.type,
        toolName: event.toolName,
        toolUseId: event.toolUseId,
        input: capped(event.input),
      };
    case 'permission_decision':
      return {
        type: event.type,
        toolName: event.toolName,
        toolUseId: event.toolUseId,
        record: event.record,
        durationMs: event.durationMs,
      };
    case 'tool_result':
      return {
        type: event.type,
        toolName: event.toolName,
        toolUseId: event.toolUseId,
        ran: event.ran,
        isError: event.result.isError,
        content: cut(event.result.content),
      };
    case 'hook_handler_started':
      return {
        type: 'hook_started',
        invocation: event.invocation,
        event: event.event,
        matchValue: event.matchValue,
        matcher: event.matcher,
        origin: event.origin,
        background: event.background,
        toolUseId: event.toolUseId,
        agentId: event.agentId,
      };
    case 'hook_outcome':
      return {
        type: event.type,
        invocation: event.invocation,
        event: event.event,
        matchValue: event.matchValue,
        toolUseId: event.toolUseId,
        agentId: event.agentId,
        ...outcomeFacts(event.outcome),
      };
    case 'subagent_started':
      return { ...event, prompt: cut(event.prompt) };
    case 'subagent_finished':
      return { ...event };
    case 'subagent_event': {
      const record = recordOf(event.event);
      return record === undefined
        ? undefined
        : { ...record, agentId: event.agentId, agentType: event.agentType };
    }
    default:
      return undefined;
  }
}

function outcomeFacts(outcome: HandlerOutcome): Record<string, unknown> {
  return {
    origin: outcome.origin,
    status: outcome.status,
    durationMs: outcome.durationMs,
    decision: hookDecision(outcome),
    failClosed: outcome.failClosed,
    output: capped(outcome.output),
    ...(outcome.blockMessage !== undefined ? { blockMessage: cut(outcome.blockMessage) } : {}),
    ...(outcome.error !== undefined ? { error: cut(outcome.error) } : {}),
    ...(outcome.raw?.exitCode !== undefined ? { exitCode: outcome.raw.exitCode } : {}),
    ...(outcome.raw?.status !== undefined ? { httpStatus: outcome.raw.status } : {}),
    ...(outcome.raw?.stdout ? { stdout: cut(outcome.raw.stdout) } : {}),
    ...(outcome.raw?.stderr ? { stderr: cut(outcome.raw.stderr) } : {}),
  };
}

function cut(text: string): string {
  return text.length > MAX_TEXT
    ? `${text.slice(0, MAX_TEXT)}… [${text.length - MAX_TEXT} more characters]`
    : text;
}

/** `value` with every long string cut (a tool input or hook output can be large). */
function capped(value: unknown): unknown {
  if (typeof value === 'string') return cut(value);
  if (Array.isArray(value)) return value.map(capped);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, capped(field)]));
  return value;
}
