import path from 'node:path';
import { ConfigError } from '../errors.js';
import {
  assistantMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type Message,
  type ToolCall,
  type ToolResultMessage,
} from '../messages/messages.js';
import {
  PENDING_CALLS_ATTACHMENT,
  pendingCallsOf,
  waitingCallId,
  type PendingCall,
} from './pending-calls.js';
import { readTranscriptLines, type TranscriptLine } from './transcript-reader.js';
import { taintChangesOf, type TaintChange } from './taint-lines.js';

/**
 * Resume: the conversation of a saved session, rebuilt from its transcript so that the loop can
 * go on where it stopped (`--continue`, `--resume ID`, `RunOptions.resume`).
 */

/** A session read back from its transcript, ready to continue. */
export interface ResumedSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  /** The conversation from the last compaction on (all of it when there was none); every tool call paired. */
  readonly messages: readonly Message[];
  /**
   * Error results made up for tool calls that had none (the session stopped while they ran); they are
   * in `messages` already, and the transcript writer appends them to the file when the session goes on.
   */
  readonly repairs: readonly {
    readonly result: ToolResultMessage;
    readonly assistantUuid: string | undefined;
  }[];
  /**
   * Calls of the last assistant message that wait for a decision (the run ended `tool_deferred`; the
   * transcript lists them in a `hookloop_pending_tool_calls` line): they have no result in
   * `messages` until `AgentSession.resume({ decisions })` decides them (see pending-calls.ts).
   */
  readonly pending: readonly (PendingCall & { readonly assistantUuid: string | undefined })[];
  /** The uuid of the last chain line: the parent of the next line written. */
  readonly leafUuid: string | null;
  /** The context size the model last reported (input, cache and output tokens of the last answer); 0 when unknown. */
  readonly contextTokens: number;
  /** The model of the last answer, when the transcript names it. */
  readonly model: string | undefined;
  /** Lines that had to be skipped and calls that had to be paired, one sentence each. */
  readonly warnings: readonly string[];
  /** What the model wrote in the session and a person since trusted, oldest first (see `TaintChange`); hookloop's. */
  readonly taint?: readonly TaintChange[];
}

/** The result a resumed session gives a call that never got one: it may or may not have taken effect. */
export const RESUMED_WITHOUT_RESULT =
  'Interrupted: the session stopped while this tool call was running, so it has no result. It may or may not have taken effect; check before repeating it.';

/**
 * Reads the transcript at `transcriptPath` and rebuilds its conversation (see `rebuildConversation`;
 * `sidechain`: a subagent's own file, whose lines are all sidechain lines).
 * The session id is the file's name. A truncated last line or a bad line is skipped with a warning.
 * @throws ConfigError when the file cannot be read or holds no conversation.
 */
export function loadSession(
  transcriptPath: string,
  options: { readonly sidechain?: boolean } = {},
): ResumedSession {
  let read: ReturnType<typeof readTranscriptLines>;
  try {
    read = readTranscriptLines(transcriptPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `cannot resume: ${code === 'ENOENT' ? 'no such transcript' : `cannot read the transcript (${code})`}: ${transcriptPath}`,
      { file: transcriptPath },
    );
  }
  const rebuilt = rebuildConversation(read.lines, options.sidechain === true);
  if (rebuilt.messages.length === 0)
    throw new ConfigError(`cannot resume: the transcript holds no conversation: ${transcriptPath}`, {
      file: transcriptPath,
    });
  return {
    sessionId: path.basename(transcriptPath, '.jsonl'),
    transcriptPath,
    ...rebuilt,
    warnings: [...read.warnings, ...rebuilt.warnings],
    taint: taintChangesOf(read.lines),
  };
}

/**
 * The conversation in `lines`: from the last `compact_boundary` on, `user` lines become user
 * messages (string content) or tool results (`tool_result` blocks), consecutive `assistant` lines
 * of one response (same `message.id`) one assistant message (text blocks joined by a blank line,
 * `tool_use` blocks as calls), and attachments the model saw as system text (`renderedRole:
 * "system"`) system messages. Subagent lines, API-error lines and metadata lines are left out.
 * Then every call is paired as the loop pairs it: its result right after the assistant message, in
 * call order; a call without one gets RESUMED_WITHOUT_RESULT (listed in `repairs`) unless it is a
 * pending call of the last assistant message (listed in `pending`), a result without a call is
 * dropped with a warning.
 */
export function rebuildConversation(
  lines: readonly TranscriptLine[],
  sidechain = false,
): Omit<ResumedSession, 'sessionId' | 'transcriptPath'> {
  const start =
    lines.findLastIndex((line) => line.type === 'system' && line.subtype === 'compact_boundary') + 1;
  const messages: Message[] = [];
  const callLines = new Map<string, string | undefined>();
  const toolNames = new Map<string, string>();
  let response: { id: string | undefined; texts: string[]; calls: ToolCall[] } | undefined;
  let contextTokens = 0;
  let model: string | undefined;
  let leafUuid: string | null = null;
  const waiting: PendingCall[] = [];
  const flush = () => {
    if (response) messages.push(assistantMessage(response.texts.join('\n\n'), response.calls));
    response = undefined;
  };
  for (const line of lines.slice(start)) {
    if (line.uuid !== undefined) leafUuid = line.uuid;
    if ((line.isSidechain === true && !sidechain) || line['isApiErrorMessage'] === true) continue;
    if (line.type === 'assistant' && line.message) {
      if (!response || response.id !== line.message.id) {
        flush();
        response = { id: line.message.id, texts: [], calls: [] };
      }
      for (const content of Array.isArray(line.message.content) ? line.message.content : []) {
        if (content.type === 'text' && typeof content['text'] === 'string')
          response.texts.push(content['text']);
        if (content.type === 'tool_use') {
          const call = {
            id: String(content['id']),
            name: String(content['name']),
            input: content['input'] ?? {},
          };
          response.calls.push(call);
          callLines.set(call.id, line.uuid);
          toolNames.set(call.id, call.name);
        }
      }
      contextTokens = usageTokens(line.message.usage) ?? contextTokens;
      model = line.message.model ?? model;
      continue;
    }
    flush();
    // The last list counts: a resumed run that leaves calls waiting again writes a new one.
    if (line.type === 'attachment' && line.attachment?.['type'] === PENDING_CALLS_ATTACHMENT)
      waiting.splice(0, waiting.length, ...pendingCallsOf(line.attachment['calls']));
    if (line.type === 'user' && line.message) messages.push(...userMessages(line.message.content, toolNames));
    else if (line.type === 'attachment' && line.renderedRole === 'system' && line.rendered) {
      const text = line.rendered
        .map((part) => (typeof part.content === 'string' ? part.content : JSON.stringify(part.content)))
        .join('\n\n');
      if (text) messages.push(systemMessage(text));
    }
  }
  flush();
  const paired = pairToolCalls(messages, waiting);
  return {
    messages: paired.messages,
    repairs: paired.repairs.map((result) => ({ result, assistantUuid: callLines.get(result.toolCallId) })),
    pending: paired.pending.map((call) => ({ ...call, assistantUuid: callLines.get(waitingCallId(call)) })),
    leafUuid,
    contextTokens,
    model,
    warnings: paired.warnings,
  };
}

function userMessages(
  content: string | readonly Record<string, unknown>[] | undefined,
  toolNames: ReadonlyMap<string, string>,
): Message[] {
  if (typeof content === 'string') return [userMessage(content)];
  const out: Message[] = [];
  const texts: string[] = [];
  for (const part of content ?? []) {
    if (part['type'] === 'tool_result') {
      const id = String(part['tool_use_id']);
      out.push(
        toolResultMessage(
          id,
          toolNames.get(id) ?? 'unknown',
          resultText(part['content']),
          part['is_error'] === true,
        ),
      );
    } else if (part['type'] === 'text' && typeof part['text'] === 'string') texts.push(part['text']);
  }
  if (texts.length > 0) out.push(userMessage(texts.join('\n\n')));
  return out;
}

/** A tool_result's content: a string, or text blocks (an Agent result) joined. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
      .join('\n');
  return content === undefined ? '' : JSON.stringify(content);
}

function usageTokens(usage: Record<string, unknown> | undefined): number | undefined {
  if (!usage) return undefined;
  const count = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  return (
    count('input_tokens') +
    count('cache_creation_input_tokens') +
    count('cache_read_input_tokens') +
    count('output_tokens')
  );
}

/** Pairing restored on a rebuilt conversation: every tool call gets exactly one result (see rebuildConversation). */
function pairToolCalls(
  messages: readonly Message[],
  waiting: readonly PendingCall[],
): { messages: Message[]; repairs: ToolResultMessage[]; pending: PendingCall[]; warnings: string[] } {
  const out: Message[] = [];
  const repairs: ToolResultMessage[] = [];
  const pending: PendingCall[] = [];
  const warnings: string[] = [];
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    index++;
    if (message.role === 'tool') {
      warnings.push(`a tool result for ${message.toolCallId} follows no call of its own; it was left out`);
      continue;
    }
    out.push(message);
    const isLast = index - 1 === lastAssistant;
    if (message.role !== 'assistant' || message.toolCalls.length === 0) continue;
    const results = new Map<string, ToolResultMessage>();
    const others: Message[] = [];
    for (; index < messages.length && messages[index]!.role !== 'assistant'; index++) {
      const next = messages[index]!;
      if (next.role !== 'tool') others.push(next);
      else if (message.toolCalls.some((call) => call.id === next.toolCallId) && !results.has(next.toolCallId))
        results.set(next.toolCallId, next);
      else warnings.push(`a tool result for ${next.toolCallId} follows no call of its own; it was left out`);
    }
    for (const call of message.toolCalls) {
      const result = results.get(call.id);
      if (result) {
        out.push(result);
        continue;
      }
      // The call waits itself, or (an Agent call) its subagent's calls wait.
      const waits = waiting.filter((entry) =>
        entry.parentToolUseId === undefined
          ? entry.id === call.id && entry.name === call.name
          : entry.parentToolUseId === call.id,
      );
      if (isLast && waits.length > 0) {
        pending.push(...waits);
        continue;
      }
      const repair = toolResultMessage(call.id, call.name, RESUMED_WITHOUT_RESULT, true);
      repairs.push(repair);
      out.push(repair);
      warnings.push(
        `tool call ${call.id} (${call.name}) has no result: the session stopped while it ran; it is paired with an error result`,
      );
    }
    out.push(...others);
  }
  return { messages: out, repairs, pending, warnings };
}
