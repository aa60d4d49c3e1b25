import os from 'node:os';
import path from 'node:path';
import { describeError, HookloopError } from '../errors.js';
import { parseArgs } from './parse-args.js';
import type { CliIo } from './cli-io.js';
import { runPrompt } from './run-prompt.js';
import { packageVersion } from './package-version.js';

export type { CliIo } from './cli-io.js';
export { NO_MODEL_MESSAGE } from './run-prompt.js';
export { packageVersion } from './package-version.js';

/**
 * The `hookloop` command. Returns the exit code: 0 success, 1 a run that ended in error,
 * 2 bad input (flags, settings, files: one line on stderr naming the file and field), 128 + the
 * signal's number when SIGINT (130), SIGTERM (143) or SIGHUP (129) ended the run (see termination-signals.ts).
 * Never throws and never prints a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const line = (stream: NodeJS.WritableStream) => (text: string) => stream.write(`${text}\n`);
  try {
    const command = parseArgs(argv, packageVersion());
    if (command.command === 'info') {
      io.stdout.write(command.text);
      return command.exitCode;
    }
    // Each subcommand's modules load only when it runs: a `-p` run pays for none of them.
    if (command.command === 'demo')
      return await (
        await import('./demo.js')
      ).runDemo({
        keep: command.keep,
        ...(command.recordRequests !== undefined
          ? { recordRequests: path.resolve(io.cwd, command.recordRequests) }
          : {}),
        write: line(io.stdout),
        writeError: line(io.stderr),
      });
    if (command.command === 'hooks')
      return await (
        await import('./hooks-command/run-hooks-command.js')
      ).runHooksCommand(command, io, runPrompt);
    if (command.command === 'mcp') return await (await import('./mcp-command.js')).runMcpCommand(command, io);
    if (command.command === 'timeline')
      return await (await import('./timeline-command.js')).runTimelineCommand(command, io);
    if (command.command === 'serve') return await (await import('./serve-command.js')).runServe(command, io);
    if (command.durable !== undefined)
      return await (await import('./durable-run.js')).runDurable(command, io);
    return await runPrompt(command, io);
  } catch (error) {
    if (error instanceof HookloopError) {
      io.stderr.write(`hookloop: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`hookloop: internal error: ${describeError(error)}\n`);
    return 1;
  }
}

function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
    homeDir: os.homedir(),
  };
}
