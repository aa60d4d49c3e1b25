import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { toWire } from '../model/model-request-wire.js';
import { PENDING_CALLS_ATTACHMENT, waitingCallId } from '../session/pending-calls.js';
import { SESSION_TAINT_ATTACHMENT } from '../session/taint-lines.js';
import type { RunEvent, RunObserver } from '../loop/run-events.js';
import type { AssistantMessage, Message, ToolResultMessage } from '../messages/messages.js';
import type { Usage } from '../model/model-client.js';
import { gitBranch, hookloopVersion } from '../session/environment-facts.js';
import { isMemoryReminder } from '../memory/memory-text.js';
import type { ResumedSession } from '../session/resume.js';
import type { SessionStoreEntry } from '../session/session-store.js';
import { makeDirectorySync } from '../files/make-directory.js';

/**
 * Writes a session's conversation as Claude Code's JSONL transcript (the format Claude Code
 * 2.1.328 writes under ~/.claude/projects/),
 * so hook scripts that read `transcript_path` find what they find under Claude Code:
 * - one `user` line per prompt (string content: the prompt as sent; `typedPrompt`, hookloop's field,
 *   holds what the user typed when a UserPromptSubmit hook rewrote it) and per tool result (`tool_result` block, `toolUseResult`,
 *   `sourceToolAssistantUUID`); Stop feedback as `isMeta` user lines;
 * - one `assistant` line per content block (text, then each `tool_use`), sharing `message.id`, with
 *   `model`, `stop_reason` and `usage`;
 * - hookloop's system messages (hook context) as `attachment` lines (`hookloop_system_message`,
 *   `renderedRole: "system"`), which Claude Code's readers skip and resume reads back;
 * - a compaction as a `system`/`compact_boundary` line, then the `isCompactSummary` user line.
 * Lines are compact JSON, raw UTF-8, collected as their RunEvents arrive and appended with one
 * synchronous write before the next hook is dispatched (`flush`), or at the end of the current
 * synchronous step, whichever comes first; so a line is in the file before any hook that could read
 * it runs, and a crash leaves only whole lines (or a cut last line, which the reader skips). The file (0600) and its folder are created with the first line.
 */

/** What the writer reads from the session at each line (the loop's SessionState fits). */
export interface TranscriptFacts {
  readonly cwd: string;
  readonly promptId: string | undefined;
  readonly mode: string;
  readonly model: string | undefined;
  readonly sessionTitle: string | undefined;
}

export interface TranscriptWriterOptions {
  readonly path: string;
  readonly sessionId: string;
  readonly facts: TranscriptFacts;
  /** `entrypoint` of each line: Claude Code writes `sdk-cli` for `-p` runs, `cli` interactively (default `sdk-cli`). */
  readonly entrypoint?: string;
  /** A resumed session: lines continue its uuid chain, and its repaired calls get their result lines first. */
  readonly resume?: ResumedSession;
  /**
   * A subagent's file (`subagents/agent-<id>.jsonl`): every line `isSidechain: true` with its
   * `agentId`, and no `toolUseResult` on result lines, as Claude Code writes them.
   */
  readonly sidechain?: { readonly agentId: string };
  /**
   * Hears every batch of lines, parsed, right after it is in the file (in file order; never for
   * lines whose write failed): the session store's copy (see storeMirror). Must not throw.
   */
  readonly mirror?: (entries: SessionStoreEntry[]) => void;
}

/** How many transcript files all writers of the process keep open between lines at most (see `append`). */
const MAX_OPEN_TRANSCRIPTS = 64;
let openTranscripts = 0;

/** The `attachment.type` of a model request as a model-call hook made it (see `writeModelRequest`). */
export const MODEL_REQUEST_ATTACHMENT = 'hookloop_model_request';

/** The `attachment.type` of hookloop's system messages in a transcript. */
export const SYSTEM_MESSAGE_ATTACHMENT = 'hookloop_system_message';

/** How the loop words the user messages that a Stop hook caused (hook-text.ts) and the memory reminder: the reference marks them `isMeta`. */
const META_USER_TEXT = [
  /^Stop hook feedback:\n/,
  /^<system-reminder>\n(Subagent)?Stop hook additional context: /,
];

export class TranscriptWriter {
  /** Hand this to the run as an observer. It never throws: a write error is reported once through `onError`, then writing stops. */
  readonly observer: RunObserver;
  private readonly options: TranscriptWriterOptions;
  private readonly onError: (error: Error) => void;
  private lastUuid: string | null;
  private usage: Usage | undefined;
  private readonly outputs = new Map<string, unknown>();
  private readonly callLines = new Map<string, string>();
  private titleWritten: string | undefined;
  private failed = false;
  private branch: { cwd: string; name: string } | undefined;
  private nextUserIsSummary = false;
  /** What the user typed, when a UserPromptSubmit hook rewrote it: kept on the next user line as `typedPrompt` (hookloop's field). */
  private typedPrompt: string | undefined;
  /** Open only during a burst of lines (see `write`). */
  private fd: number | undefined;
  /** Lines not yet written (see `append`). */
  private pending: string[] = [];
  private keepOpen = true;

  constructor(options: TranscriptWriterOptions, onError: (error: Error) => void) {
    this.options = options;
    this.onError = onError;
    this.lastUuid = options.resume?.leafUuid ?? null;
    this.observer = (event) => this.safely(() => this.handle(event));
    this.safely(() => {
      for (const repair of options.resume?.repairs ?? [])
        this.writeToolResult(repair.result, repair.assistantUuid);
    });
    // A pending call's result, written when it is decided, hangs off the assistant line of its call.
    for (const call of options.resume?.pending ?? [])
      if (call.assistantUuid !== undefined) this.callLines.set(waitingCallId(call), call.assistantUuid);
  }

  private handle(event: RunEvent): void {
    switch (event.type) {
      case 'model_response':
        this.usage = event.usage;
        return;
      case 'tool_result':
        if (event.output !== undefined) this.outputs.set(event.toolUseId, event.output);
        return;
      case 'message':
        this.writeMessage(event.message);
        return;
      case 'compaction':
        this.writeCompaction(event);
        return;
      case 'prompt_rewritten':
        this.typedPrompt = event.typed;
        return;
      case 'model_request_sent':
        this.writeModelRequest(event);
        return;
      case 'calls_pending':
        // The calls stay without result lines; this line is what `--resume ID --approve …` reads back (resume.ts).
        this.chain({
          attachment: { type: PENDING_CALLS_ATTACHMENT, calls: event.calls },
          type: 'attachment',
        });
        return;
      case 'session_taint':
        // What a resumed session reads back to know which files the model wrote (resume.ts).
        this.chain({ attachment: { type: SESSION_TAINT_ATTACHMENT, ...event.change }, type: 'attachment' });
        return;
      default:
        return;
    }
  }

  private writeMessage(message: Message): void {
    switch (message.role) {
      case 'assistant':
        this.writeAssistant(message);
        return;
      case 'tool':
        this.writeToolResult(message, this.callLines.get(message.toolCallId));
        return;
      case 'system':
        this.chain({
          attachment: { type: SYSTEM_MESSAGE_ATTACHMENT, content: message.content },
          type: 'attachment',
          rendered: [{ content: message.content }],
          renderedRole: 'system',
        });
        return;
      case 'user': {
        const summary = this.nextUserIsSummary;
        this.nextUserIsSummary = false;
        const meta =
          META_USER_TEXT.some((pattern) => pattern.test(message.content)) ||
          isMemoryReminder(message.content);
        const typed = this.typedPrompt;
        this.typedPrompt = undefined;
        this.chain({
          ...this.prompt(),
          type: 'user',
          message: { role: 'user', content: message.content },
          ...(meta ? { isMeta: true } : {}),
          ...(summary ? { isCompactSummary: true, isVisibleInTranscriptOnly: true } : {}),
          ...(!meta && !summary ? { permissionMode: this.options.facts.mode } : {}),
          ...(typed !== undefined ? { typedPrompt: typed } : {}),
        });
        return;
      }
    }
  }

  /** One line per content block, chained, sharing the response's id, usage and stop reason. */
  private writeAssistant(message: AssistantMessage): void {
    const blocks = [
      ...(message.text ? [{ type: 'text', text: message.text }] : []),
      ...message.toolCalls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: call.input,
      })),
    ];
    const id = `msg_${randomBytes(12).toString('hex')}`;
    const usage = this.usage;
    this.usage = undefined;
    blocks.forEach((content, index) => {
      const uuid = this.chain({
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: this.options.facts.model ?? 'unknown',
          content: [content],
          stop_reason: message.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: usage?.inputTokens ?? 0,
            cache_creation_input_tokens: usage?.cacheCreationInputTokens ?? 0,
            cache_read_input_tokens: usage?.cacheReadInputTokens ?? 0,
            output_tokens: usage?.outputTokens ?? 0,
          },
        },
        apiBlockIndex: index,
        type: 'assistant',
      });
      if (content.type === 'tool_use') this.callLines.set((content as { id: string }).id, uuid);
    });
  }

  /** A result hangs off the assistant line of its call (section 9); `toolUseResult` is the tool's output, or `Error: …`. */
  private writeToolResult(result: ToolResultMessage, assistantUuid: string | undefined): void {
    const output = this.outputs.get(result.toolCallId);
    this.outputs.delete(result.toolCallId);
    const toolUseResult = result.isError
      ? result.content.startsWith('Error')
        ? result.content
        : `Error: ${result.content}`
      : output;
    this.chain(
      {
        ...this.prompt(),
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              tool_use_id: result.toolCallId,
              type: 'tool_result',
              content: result.content,
              is_error: result.isError,
            },
          ],
        },
        ...(toolUseResult !== undefined && this.options.sidechain === undefined ? { toolUseResult } : {}),
        ...(assistantUuid !== undefined ? { sourceToolAssistantUUID: assistantUuid } : {}),
      },
      assistantUuid,
    );
  }

  /**
   * A request a model-call hook changed or answered, as sent: an attachment line Claude Code's
   * readers and resume skip (no `renderedRole`); tools by name, messages provider-neutral.
   */
  private writeModelRequest(event: Extract<RunEvent, { type: 'model_request_sent' }>): void {
    const { request } = event;
    this.chain({
      attachment: {
        type: MODEL_REQUEST_ATTACHMENT,
        caller: event.caller,
        turn: event.turn,
        synthetic: event.synthetic,
        system: request.system,
        ...(request.model !== undefined ? { model: request.model } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        tools: request.tools.map((tool) => tool.name),
        ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
        messages: request.messages.map(toWire),
      },
      type: 'attachment',
    });
  }

  private writeCompaction(event: Extract<RunEvent, { type: 'compaction' }>): void {
    const logicalParentUuid = this.lastUuid;
    this.lastUuid = null;
    this.chain({
      logicalParentUuid,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      level: 'info',
      compactMetadata: { trigger: event.trigger, preTokens: event.preTokens, durationMs: event.durationMs },
    });
    this.nextUserIsSummary = true;
    for (const message of event.messages) this.writeMessage(message);
    this.nextUserIsSummary = false;
  }

  private prompt(): { promptId?: string } {
    const promptId = this.options.facts.promptId;
    return promptId !== undefined ? { promptId } : {};
  }

  /** Appends a chain line (envelope added; `parentUuid` = the previous line unless given) and returns its uuid. */
  private chain(fields: Record<string, unknown>, parentUuid?: string): string {
    const uuid = randomUUID();
    const { cwd } = this.options.facts;
    if (this.branch?.cwd !== cwd) this.branch = { cwd, name: gitBranch(cwd) };
    this.title();
    const { logicalParentUuid, ...rest } = fields;
    this.append({
      parentUuid: parentUuid ?? this.lastUuid,
      ...(logicalParentUuid !== undefined ? { logicalParentUuid } : {}),
      isSidechain: this.options.sidechain !== undefined,
      ...(this.options.sidechain !== undefined ? { agentId: this.options.sidechain.agentId } : {}),
      ...rest,
      uuid,
      timestamp: new Date().toISOString(),
      userType: 'external',
      entrypoint: this.options.entrypoint ?? 'sdk-cli',
      cwd,
      sessionId: this.options.sessionId,
      version: hookloopVersion(),
      gitBranch: this.branch.name,
    });
    this.lastUuid = uuid;
    return uuid;
  }

  /** A SessionStart `sessionTitle` is recorded as a `custom-title` line, once per title. */
  private title(): void {
    const title = this.options.facts.sessionTitle;
    if (title === undefined || title === this.titleWritten) return;
    this.titleWritten = title;
    this.append({ type: 'custom-title', customTitle: title, sessionId: this.options.sessionId });
  }

  private append(line: Record<string, unknown>): void {
    this.appendLine(JSON.stringify(line));
  }

  private appendLine(json: string): void {
    // Lines are collected and written together, one write for all the lines of a synchronous
    // burst (a tool batch writes several), instead of one write each: `flush` runs before any hook
    // is dispatched (the run calls it: see RunContext.flushTranscript) and, for every other reader,
    // at the end of the current synchronous step (a microtask).
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(json);
  }

  /**
   * Writes the lines collected so far with one synchronous write, so they are in the file (the
   * OS's) when this returns. The run calls it before dispatching any hook, so a hook that reads
   * `transcript_path` finds every line so far. Never throws (see `observer`).
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending;
    const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    this.pending = [];
    this.safely(() => this.write(data));
    // Parsed back from the text written, so the copy is exactly what the file holds.
    if (this.options.mirror !== undefined && !this.failed)
      this.options.mirror(lines.map((line) => JSON.parse(line) as SessionStoreEntry));
  }

  private write(data: Buffer): void {
    // The file stays open for the writes of one synchronous burst and is closed on the next turn of
    // the event loop: mkdir + open + close for every line cost ~20 µs per line, more than the rest
    // of the loop's work for a tool call (bench row 1). Many sessions in one process (in-memory
    // models never yield to the event loop) keep at most MAX_OPEN_TRANSCRIPTS open.
    if (this.fd === undefined) {
      makeDirectorySync(path.dirname(this.options.path), 0o755);
      this.fd = fs.openSync(this.options.path, 'a', 0o600);
      if (openTranscripts < MAX_OPEN_TRANSCRIPTS) {
        openTranscripts++;
        setImmediate(() => this.closeFile(true));
      } else {
        this.keepOpen = false;
      }
    }
    for (let offset = 0; offset < data.length;) offset += fs.writeSync(this.fd, data, offset);
    if (!this.keepOpen) this.closeFile(false);
  }

  private closeFile(counted: boolean): void {
    if (counted) openTranscripts--;
    this.keepOpen = true;
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      fs.closeSync(fd);
    } catch (error) {
      // The lines were all written; a failed close is still reported (once, like any write error).
      this.safely(() => {
        throw error;
      });
    }
  }

  private safely(action: () => void): void {
    if (this.failed) return;
    try {
      action();
    } catch (error) {
      this.failed = true;
      this.onError(
        new Error(
          `the transcript ${this.options.path} could not be written, so it stops here: ${(error as Error).message}`,
          { cause: error },
        ),
      );
    }
  }
}
