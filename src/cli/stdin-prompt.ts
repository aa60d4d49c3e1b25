import fs from 'node:fs';
import { ConfigError } from '../errors.js';

/** How long a run with a prompt argument waits for the first byte of piped stdin (Claude Code's 3 s). */
export const STDIN_WAIT_MS = 3000;

/** Claude Code's words when `-p` has no prompt, neither as an argument nor on stdin. */
export const NO_PRINT_INPUT =
  'Input must be provided either through stdin or as a prompt argument when using --print';

/**
 * The prompt of a headless run, as Claude Code builds it: the argument, then what was piped on
 * stdin (`git diff | hookloop -p "review this"`), joined by a newline; either alone is the prompt.
 * stdin is read only when it is not a terminal. With an argument, a pipe that sends nothing for
 * `waitMs` is given up on (with a warning), so a caller that leaves stdin open does not hang the
 * run; without one, stdin is read to its end.
 *
 * @returns the prompt, or undefined when there is none at all (no argument, nothing piped).
 * @throws ConfigError when `-p` was given and the prompt is empty (`-p ""` with nothing piped).
 */
export async function headlessPrompt(
  argument: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  options: { print: boolean; warn: (text: string) => void; waitMs?: number },
): Promise<string | undefined> {
  const hasArgument = argument !== undefined && argument.trim() !== '';
  const piped =
    stdin.isTTY === true || isNullDevice(stdin)
      ? ''
      : await readPiped(stdin, hasArgument ? (options.waitMs ?? STDIN_WAIT_MS) : undefined, options.warn);
  const parts = [argument, piped].filter((part): part is string => part !== undefined && part.trim() !== '');
  if (parts.length > 0) return parts.join('\n');
  if (options.print || argument !== undefined)
    throw new ConfigError(`-p: ${NO_PRINT_INPUT}`, { field: '-p' });
  return undefined;
}

/**
 * Whether `stdin` is the process's fd 0 open on a character device such as /dev/null (a caller's
 * `stdio: 'ignore'`): there is nothing to read there, so no stream is opened on it at all.
 */
function isNullDevice(stdin: NodeJS.ReadableStream): boolean {
  if (stdin !== process.stdin) return false;
  try {
    return fs.fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/** All of stdin as text; with `waitMs`, '' when no byte arrives within that time. Never rejects. */
function readPiped(
  stdin: NodeJS.ReadableStream,
  waitMs: number | undefined,
  warn: (text: string) => void,
): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (timer !== undefined) clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', finish);
      stdin.off('error', finish);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    stdin.on('data', onData);
    stdin.once('end', finish);
    stdin.once('error', finish);
    if (waitMs !== undefined) {
      timer = setTimeout(() => {
        warn(
          `no stdin data received in ${waitMs / 1000} s; going on with the prompt argument alone (redirect stdin from /dev/null to skip this wait)`,
        );
        finish();
        // Stop reading, so the open pipe does not keep the process alive after the run.
        (stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      }, waitMs);
    }
  });
}
