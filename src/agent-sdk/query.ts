import { randomUUID } from 'node:crypto';
import { AbortError, ConfigError } from '../errors.js';
import type { RunEvent } from '../loop/run-events.js';
import { startSession, type AgentSession } from '../run/run-agent.js';
import type { RunResult } from '../run/run-options.js';
import { partialMessageTranslator } from '../cli/partial-messages.js';
import { MessageChannel } from './message-channel.js';
import { queryRunOptions } from './query-run-options.js';
import {
  resultMessage,
  sdkMessageTranslator,
  type SDKMessage,
  type SDKSystemMessage,
  type SDKUserMessage,
} from './sdk-messages.js';
import type { Options } from './sdk-options.js';
import type { PermissionMode } from './sdk-types.js';

/**
 * The running query: an async generator of the session's messages, plus the Agent SDK's controls.
 * Contract: the first message is the `system` `init`; each prompt's turn ends with one `result`.
 */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /**
   * Interrupts the turn in flight: the tool processes are stopped, every call is paired, the stream
   * yields that turn's `result` (`error_during_execution`) and then throws an AbortError.
   */
  interrupt(): Promise<void>;
  /**
   * Switches the permission mode for the calls that follow (`auto` runs as `dontAsk`).
   * @throws ConfigError for `bypassPermissions` without `allowDangerouslySkipPermissions`, or an unknown mode.
   */
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** Ends the query now: the run is aborted (every call paired) and the stream ends, without a result and without throwing. */
  close(): void;
}

/**
 * The Agent SDK's `query()` on hookloop's engine: runs `prompt` (a string, or an async iterable of
 * user messages, one turn each, until it ends) with `options` (the SDK's; `hookloop` for
 * hookloop's extensions, see HookloopQueryOptions) and yields the SDK's messages: `system` init,
 * `assistant` (one per content block), `user` (tool results), `stream_event` with
 * `includePartialMessages`, and `result` per turn.
 *
 * Aborting `options.abortController` makes the stream throw an AbortError without a result.
 * @throws ConfigError (from the first `next()`, before anything runs) for an option that cannot be
 *   honoured, naming it; a prompt message hookloop cannot send (not text).
 */
export function query(params: { prompt: string | AsyncIterable<SDKUserMessage>; options?: Options }): Query {
  const options = params.options ?? {};
  const abort = options.abortController ?? new AbortController();
  const control: Control = { interrupted: false, closed: false };
  const generator = messages(params.prompt, options, abort, control);
  const setPermissionMode = (mode: PermissionMode): Promise<void> => {
    if (mode === 'bypassPermissions' && options.allowDangerouslySkipPermissions !== true)
      return Promise.reject(
        new ConfigError(
          'setPermissionMode("bypassPermissions") needs allowDangerouslySkipPermissions: true',
          {
            field: 'permissionMode',
          },
        ),
      );
    try {
      if (control.session) control.session.setPermissionMode(mode === 'auto' ? 'dontAsk' : mode);
      else control.mode = mode;
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return Promise.resolve();
  };
  return Object.assign(generator, {
    interrupt: () => {
      control.interrupted = true;
      control.turn?.abort();
      return Promise.resolve();
    },
    setPermissionMode,
    close: () => {
      control.closed = true;
      abort.abort();
    },
  });
}

/** What the query's controls share with its stream: the session once started, the turn in flight, what was asked. */
interface Control {
  session?: AgentSession;
  turn?: AbortController;
  interrupted: boolean;
  closed: boolean;
  mode?: PermissionMode;
}

async function* messages(
  prompt: string | AsyncIterable<SDKUserMessage>,
  options: Options,
  abort: AbortController,
  control: Control,
): AsyncGenerator<SDKMessage, void> {
  const channel = new MessageChannel<SDKMessage>();
  let sessionId = '';
  let modelName = '';
  const partial = options.includePartialMessages === true ? partialMessageTranslator() : undefined;
  const translate = sdkMessageTranslator(
    () => sessionId,
    () => modelName,
    partial,
  );
  const observer = (event: RunEvent) => {
    for (const message of translate(event)) channel.push(message);
  };
  const prepared = await queryRunOptions(options, observer, abort.signal);
  modelName = prepared.modelName;
  const session = await startSession(prepared.runOptions);
  control.session = session;
  sessionId = session.sessionId;
  if (control.mode !== undefined)
    session.setPermissionMode(control.mode === 'auto' ? 'dontAsk' : control.mode);
  try {
    yield initMessage(session, prepared, options);
    for await (const text of promptTexts(prompt)) {
      if (control.closed) return;
      if (abort.signal.aborted) throw new AbortError('the query was aborted');
      const turn = new AbortController();
      control.turn = turn;
      let finished: { result?: RunResult; error?: unknown } | undefined;
      void session.send(text, { signal: turn.signal }).then(
        (result) => {
          finished = { result };
          channel.wake();
        },
        (error: unknown) => {
          finished = { error };
          channel.wake();
        },
      );
      while (finished === undefined || channel.size > 0) {
        const message = await channel.take();
        if (message !== undefined) yield message;
      }
      control.turn = undefined;
      if (control.closed) return;
      if (abort.signal.aborted) throw new AbortError('the query was aborted');
      if (finished.error !== undefined) throw finished.error;
      yield resultMessage(finished.result!);
      if (control.interrupted) throw new AbortError('the query was interrupted');
    }
  } finally {
    // A reader that stops early (`break`, `return()`) ends the turn in flight rather than wait for it.
    control.turn?.abort();
    await session.end(abort.signal.aborted ? 'abort' : 'other');
  }
}

function initMessage(
  session: AgentSession,
  prepared: Awaited<ReturnType<typeof queryRunOptions>>,
  options: Options,
): SDKSystemMessage {
  return {
    type: 'system',
    subtype: 'init',
    session_id: session.sessionId,
    uuid: randomUUID(),
    cwd: prepared.runOptions.projectDir,
    tools: session.toolNames,
    mcp_servers: session.mcpServers,
    model: prepared.modelName,
    permissionMode: options.permissionMode ?? prepared.runOptions.permissions?.mode ?? 'default',
    agents: prepared.agentNames,
    apiKeySource: 'none',
    slash_commands: [],
    output_style: 'default',
    skills: (prepared.runOptions.skills ?? []).map((skill) => skill.name),
    plugins: [],
  };
}

/** The prompt's texts, one per turn: the string, or each streamed user message's text. */
async function* promptTexts(prompt: string | AsyncIterable<SDKUserMessage>): AsyncGenerator<string> {
  if (typeof prompt === 'string') {
    yield prompt;
    return;
  }
  let index = 0;
  for await (const message of prompt) {
    yield messageText(message, index++);
  }
}

/**
 * The text of a streamed user message: its string content, or its text blocks joined by newlines.
 * @throws ConfigError naming the message and block for a block hookloop cannot send (an image, a document).
 */
function messageText(message: SDKUserMessage, index: number): string {
  const content = message?.message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new ConfigError(`query() prompt[${index}].message.content: expected a string or content blocks`, {
      field: `prompt[${index}]`,
    });
  return content
    .map((block, blockIndex) => {
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      throw new ConfigError(
        `query() prompt[${index}].message.content[${blockIndex}]: a ${String(block.type)} block is not supported, only text`,
        { field: `prompt[${index}]` },
      );
    })
    .join('\n');
}
