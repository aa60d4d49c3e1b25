import {
  startSession,
  type AgentSession,
  type RunOptions,
  type RunResult,
  type SessionEndReason,
} from '../run/run-agent.js';
import type { RunObserver } from '../loop/run-events.js';
import { renderInput } from './tty-approver.js';
import { END_OF_INPUT, INTERRUPTED, PromptReader } from './interactive-input.js';

/**
 * Interactive mode: `hookloop` on a terminal without `-p`. One session, one prompt after another
 * (UserPromptSubmit per prompt, Stop per answer); Ctrl-C interrupts the running turn (every tool
 * call stays paired) and, at an empty prompt, twice in a row leaves; Ctrl-D or `/exit` leaves with
 * SessionEnd reason `prompt_input_exit`; `/compact [instructions]` compacts on demand.
 */

/** The streams of an interactive session. */
export interface InteractiveIo {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Answers (stdout). */
  readonly output: NodeJS.WritableStream;
  /** Everything else: the banner, tool activity, notices (stderr). */
  readonly notices: NodeJS.WritableStream;
  /** Where Ctrl-C arrives while a turn runs: the terminal sends SIGINT then (default `process`). */
  readonly signals?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

export interface InteractiveOptions {
  readonly session: AgentSession;
  /** A prompt given on the command line (`hookloop "fix the tests"`): sent first. */
  readonly firstPrompt?: string;
  /** True when `result` was already streamed to `output` as it arrived (see textStreamPrinter). */
  readonly alreadyPrinted?: (result: string) => boolean;
  /** The session's own signal (SIGTERM, SIGHUP): aborted, the running turn ends, no prompt is read, SessionEnd says `abort`. */
  readonly signal?: AbortSignal;
}

const HELP =
  'Commands: /compact [instructions] (summarize the conversation to free context), /exit (leave), /help. Ctrl-C interrupts a turn; Ctrl-D leaves.';

/**
 * Runs the prompt loop until the user leaves, then ends the session (SessionEnd). Returns the exit
 * code (0). Never throws for model, tool or hook failures: a failed turn is reported and the next
 * prompt is read.
 */
export async function runInteractive(options: InteractiveOptions, io: InteractiveIo): Promise<number> {
  const { session } = options;
  const reader = new PromptReader(io.input, io.output);
  const note = (text: string) => io.notices.write(`${text}\n`);
  note(`hookloop session ${session.sessionId}. ${HELP}`);
  let reason: SessionEndReason = 'prompt_input_exit';
  let pending = options.firstPrompt;
  let interruptedAtPrompt = false;
  try {
    for (;;) {
      const answer = pending ?? (await reader.read('> ', options.signal));
      pending = undefined;
      if (sessionEnding(options)) {
        reason = 'abort';
        break;
      }
      if (answer === END_OF_INPUT) break;
      if (answer === INTERRUPTED) {
        if (interruptedAtPrompt) break;
        interruptedAtPrompt = true;
        note('(press Ctrl-C again, or Ctrl-D, or type /exit to leave)');
        continue;
      }
      interruptedAtPrompt = false;
      const line = answer.trim();
      if (line === '') continue;
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') note(HELP);
      else if (line === '/compact' || line.startsWith('/compact '))
        await compact(session, line.slice('/compact'.length).trim(), io, note);
      else
        printResult(await interruptible(io, (signal) => session.send(answer, { signal })), options, io, note);
      if (sessionEnding(options)) {
        reason = 'abort';
        break;
      }
    }
  } catch (error) {
    reason = 'other';
    throw error;
  } finally {
    await session.end(reason);
  }
  return 0;
}

/** True once the session's own signal is aborted (a function, so each check reads it anew). */
function sessionEnding(options: InteractiveOptions): boolean {
  return options.signal?.aborted === true;
}

/**
 * Starts a session with `options` (SessionStart fires) and runs the prompt loop on `io`, `firstPrompt` first.
 * @throws ConfigError for invalid permission rules.
 */
export async function runInteractiveSession(
  options: RunOptions,
  firstPrompt: string | undefined,
  io: InteractiveIo,
  alreadyPrinted?: (result: string) => boolean,
): Promise<number> {
  const session = await startSession(options);
  return runInteractive(
    {
      session,
      ...(firstPrompt !== undefined ? { firstPrompt } : {}),
      ...(alreadyPrinted ? { alreadyPrinted } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    io,
  );
}

/** Runs `task` with a signal that Ctrl-C (SIGINT) aborts; the handler is there only while it runs. */
async function interruptible<T>(io: InteractiveIo, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const signals = io.signals ?? process;
  const onInterrupt = () => controller.abort();
  signals.on('SIGINT', onInterrupt);
  try {
    return await task(controller.signal);
  } finally {
    signals.off('SIGINT', onInterrupt);
  }
}

async function compact(
  session: AgentSession,
  instructions: string,
  io: InteractiveIo,
  note: (text: string) => void,
): Promise<void> {
  const outcome = await interruptible(io, (signal) => session.compact(instructions || undefined, { signal }));
  if (outcome.kind === 'compacted')
    note(
      `(conversation compacted: the summary replaces ${outcome.preTokens > 0 ? `about ${outcome.preTokens} tokens of ` : ''}history)`,
    );
  else if (outcome.kind === 'blocked') note(`(compaction blocked by a PreCompact hook: ${outcome.reason})`);
  else note(`(compaction failed: ${outcome.error})`);
}

function printResult(
  result: RunResult,
  options: InteractiveOptions,
  io: InteractiveIo,
  note: (text: string) => void,
): void {
  if (result.terminalReason === 'aborted') {
    note('(interrupted)');
    return;
  }
  if (
    result.result &&
    result.terminalReason !== 'api_error' &&
    !(options.alreadyPrinted?.(result.result) ?? false)
  )
    io.output.write(`${result.result}\n`);
  if (result.terminalReason === 'api_error') note(`(the model request failed: ${result.result})`);
  else if (result.isError) note(`(the turn ended: ${result.terminalReason})`);
}

/**
 * What an interactive session shows besides the final answers: the text the model wrote before its
 * tool calls (unless it was streamed already), one line per tool call (`● Bash(npm test)`), failed
 * results, and automatic compactions. Notifications only.
 */
export function interactiveActivity(
  write: (line: string) => void,
  writeText: (line: string) => void = write,
): RunObserver {
  let streamed = false;
  // Each call is shown when it starts, so an approval question follows its own call's line;
  // a call that never started (unknown tool, bad input) is shown with its error.
  const shown = new Set<string>();
  const show = (id: string, name: string, input: unknown) => {
    if (shown.has(id)) return;
    shown.add(id);
    write(`● ${name}(${renderInput(input)})`);
  };
  let calls = new Map<string, { name: string; input: unknown }>();
  return (event) => {
    if (event.type === 'model_request') streamed = false;
    else if (event.type === 'model_stream' && event.event.type === 'text_delta') streamed = true;
    else if (event.type === 'message' && event.message.role === 'assistant') {
      if (event.message.toolCalls.length > 0 && event.message.text && !streamed)
        writeText(event.message.text);
      calls = new Map(
        event.message.toolCalls.map((call) => [call.id, { name: call.name, input: call.input }]),
      );
    } else if (event.type === 'tool_started') {
      show(event.toolUseId, event.toolName, event.input);
    } else if (event.type === 'tool_result') {
      const call = calls.get(event.toolUseId);
      if (call) show(event.toolUseId, call.name, call.input);
      if (event.result.isError) write(`  ⎿ ${event.result.content.split('\n', 1)[0]}`);
    } else if (event.type === 'compaction' && event.trigger === 'auto') {
      write('(the context is nearly full: the conversation was compacted)');
    }
  };
}
