import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { ConfigError, describeError } from '../../errors.js';
import type { CliIo } from '../cli-io.js';
import { parseArgs, type RunCommandOptions } from '../parse-args.js';
import type { HooksRecordOptions } from './parse-hooks-args.js';
import type { RunSession } from './run-session.js';

/**
 * `hookloop hooks record [-o FILE] [--settings F] [--plugin-dir D] -- RUN-ARGS…`: runs the session
 * RUN-ARGS describe (as `hookloop RUN-ARGS` would, with record's `--settings`/`--plugin-dir` added) with a recorder on its hook engine, and writes every payload the
 * session dispatched — each event it fired, whether or not a handler was configured — one JSON
 * line each, byte for byte what a command hook reads on stdin. With `-o` the lines go to FILE (as
 * they happen) and the session prints as usual; without, they go to stdout and the session's own
 * stdout is sent to stderr, so that stdout stays pure JSON lines.
 *
 * Returns the session's exit code.
 * @throws ConfigError when RUN-ARGS do not describe a run, or FILE cannot be written.
 */
export async function recordSession(
  command: HooksRecordOptions,
  io: CliIo,
  runSession: RunSession,
): Promise<number> {
  // The version only matters to `--version`, which describes no run and is refused below.
  const parsed = parseArgs(command.runArgs, '');
  if (parsed.command !== 'run' || parsed.prompt === undefined) {
    throw new ConfigError(
      'hooks record: expected the arguments of a run, e.g. hookloop hooks record -- -p "PROMPT" --settings hooks.json --model-script turns.json',
      { field: 'run-args' },
    );
  }
  const run = withSources(parsed, command);
  let descriptor: number | undefined;
  if (command.output !== undefined) {
    try {
      descriptor = fs.openSync(command.output, 'w');
    } catch (error) {
      throw new ConfigError(
        `hooks record --output ${command.output}: cannot write: ${describeError(error)}`,
        { file: command.output },
      );
    }
  }
  const toFile = descriptor;
  const write =
    toFile === undefined
      ? (line: string) => io.stdout.write(`${line}\n`)
      : (line: string) => fs.writeSync(toFile, `${line}\n`);
  const sessionStdout = toFile === undefined ? redirectTo(io.stderr) : io.stdout;
  try {
    return await runSession(run, { ...io, stdout: sessionStdout }, { record: write });
  } finally {
    if (toFile !== undefined) fs.closeSync(toFile);
  }
}

/**
 * The run with `hooks record`'s own `--settings` and `--plugin-dir` (given before `--`) added.
 * @throws ConfigError when both give `--settings` (a run reads one).
 */
function withSources(run: RunCommandOptions, command: HooksRecordOptions): RunCommandOptions {
  if (command.settings !== undefined && run.settings !== undefined && command.settings !== run.settings) {
    throw new ConfigError(
      'hooks record: --settings is given both before and after --; a run reads one --settings',
      { field: '--settings' },
    );
  }
  const settings = command.settings ?? run.settings;
  return { ...run, settings, pluginDirs: [...command.pluginDirs, ...run.pluginDirs] };
}

/** A stream that forwards what is written to it. */
function redirectTo(target: NodeJS.WritableStream): NodeJS.WritableStream {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => target.write(chunk));
  return stream;
}
