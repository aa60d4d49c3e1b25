/**
 * `hookloop/hook`: write a command hook once in Node, run it one-shot under Claude Code (and
 * hookloop) or persistent under hookloop (`"persistent": true`, a hookloop extension: one process
 * per session instead of one Node start-up per event; docs/hooks.md).
 *
 * ```js
 * #!/usr/bin/env node
 * import { defineHook } from 'hookloop/hook';
 * defineHook((input) => {
 *   if (input.tool_name === 'Bash' && /rm -rf/.test(input.tool_input.command)) return { exitCode: 2, stderr: 'no rm -rf' };
 *   return { hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext: 'checked' } };
 * });
 * ```
 *
 * This module imports nothing of hookloop's engine, so a hook pays only for itself.
 */

/**
 * The event JSON a hook script receives on stdin (Claude Code's fields: `hook_event_name`,
 * `session_id`, `cwd`, `tool_name`, …), untyped per event. The package root's `HookInput<E>` is
 * the same JSON typed for one event.
 */
export type HookStdin = Readonly<Record<string, unknown>> & {
  readonly hook_event_name: string;
  readonly session_id: string;
  readonly cwd: string;
};

/** What a one-shot run's exit code and output would say: exit 2 blocks with `stderr`, 0 reads `stdout` (JSON or text). */
export interface HookExit {
  readonly exitCode: number;
  readonly stdout?: string;
  readonly stderr?: string;
}

/**
 * A handler's answer: a {@link HookExit}; any other object, printed as the hook's JSON output
 * (exit 0); a string, printed as plain stdout (exit 0); nothing, exit 0 with no output.
 */
export type HookReply = HookExit | Record<string, unknown> | string | undefined | void;

/** @deprecated Renamed `HookStdin`: the package root's `HookInput<E>` is the typed event. */
export type HookInput = HookStdin;
/** @deprecated Renamed `HookReply`: the package root's `HookResult<E>` is a typed callback's answer. */
export type HookResult = HookReply;

/** The variable hookloop sets to `1` for a persistent hook's process. */
const PERSISTENT_HOOK_ENV = 'HOOKLOOP_PERSISTENT_HOOK';

/**
 * Runs `handler` as this process's hook. One-shot (the default, and always under Claude Code):
 * reads stdin to its end, runs the handler, prints its answer and sets the exit code. Persistent
 * (hookloop set `HOOKLOOP_PERSISTENT_HOOK=1`): answers each line of stdin (one event JSON) with one
 * line, in order, until stdin ends; `console.log` and friends go to stderr there, as stdout is the
 * protocol. A handler that throws (or input that is not JSON) is a non-blocking failure: exit 1 with
 * the message on stderr. Resolves when the hook is done (one-shot: the exit code is set, not forced).
 */
export async function defineHook(
  handler: (input: HookStdin) => HookReply | Promise<HookReply>,
): Promise<void> {
  if (process.env[PERSISTENT_HOOK_ENV] === '1') return persistent(handler);
  const text = await readAll(process.stdin);
  const answer = await answerOf(handler, text);
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  process.exitCode = answer.exitCode;
}

async function persistent(handler: (input: HookStdin) => HookReply | Promise<HookReply>): Promise<void> {
  for (const name of ['log', 'info', 'debug'] as const) console[name] = console.error;
  let pending = '';
  let chain = Promise.resolve();
  await new Promise<void>((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() === '') continue;
        chain = chain.then(async () => {
          process.stdout.write(`${JSON.stringify(await answerOf(handler, line))}\n`);
        });
      }
    });
    process.stdin.once('end', () => void chain.then(resolve));
  });
}

async function answerOf(
  handler: (input: HookStdin) => HookReply | Promise<HookReply>,
  text: string,
): Promise<Required<HookExit>> {
  let input: HookStdin;
  try {
    input = JSON.parse(text) as HookStdin;
  } catch (error) {
    return { exitCode: 1, stdout: '', stderr: `hook input is not JSON: ${(error as Error).message}\n` };
  }
  let result: HookReply;
  try {
    result = await handler(input);
  } catch (error) {
    return { exitCode: 1, stdout: '', stderr: `${error instanceof Error ? error.message : String(error)}\n` };
  }
  if (result === undefined || result === null) return { exitCode: 0, stdout: '', stderr: '' };
  if (typeof result === 'string') return { exitCode: 0, stdout: result, stderr: '' };
  if (typeof (result as HookExit).exitCode === 'number') {
    const exit = result as HookExit;
    return { exitCode: exit.exitCode, stdout: exit.stdout ?? '', stderr: exit.stderr ?? '' };
  }
  return { exitCode: 0, stdout: JSON.stringify(result), stderr: '' };
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.once('end', () => resolve(text));
    stream.once('error', () => resolve(text));
  });
}
