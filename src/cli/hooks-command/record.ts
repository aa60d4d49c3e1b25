import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { ConfigError, describeError } from '../../errors.js';
import type { CliIo } from '../main.js';
import { parseArgs } from '../parse-args.js';
import type { HooksRecordOptions } from './parse-hooks-args.js';
import type { RunSession } from './run-hooks-command.js';

/**
 * `hookloop hooks record [-o FILE] -- RUN-ARGS…`: runs the session RUN-ARGS describe (as
 * `hookloop RUN-ARGS` would) with a recorder on its hook engine, and writes every payload the
 * session dispatched — each event it fired, whether or not a handler was configured — one JSON
 * line each, byte for byte what a command hook reads on stdin. With `-o` the lines go to FILE (as
 * they happen) and the session prints as usual; without, they go to stdout and the session's own
 * stdout is sent to stderr, so that stdout stays pure JSON lines.
 *
 * Returns the session's exit code.
 * @throws ConfigError when RUN-ARGS do not describe a run, or FILE cannot be written.
 */
export async function recordSession(command: HooksRecordOptions, io: CliIo, runSession: RunSession): Promise<number> {
  // The version only matters to `--version`, which describes no run and is refused below.
  const run = parseArgs(command.runArgs, '');
  if (run.command !== 'run' || run.prompt === undefined) {
    throw new ConfigError('hooks record: expected the arguments of a run, e.g. hookloop hooks record -- -p "PROMPT" --settings hooks.json --model-script turns.json', { field: 'run-args' });
  }
  let descriptor: number | undefined;
  if (command.output !== undefined) {
    try {
      descriptor = fs.openSync(command.output, 'w');
    } catch (error) {
      throw new ConfigError(`hooks record --output ${command.output}: cannot write: ${describeError(error)}`, { file: command.output });
    }
  }
  const toFile = descriptor;
  const write = toFile === undefined ? (line: string) => io.stdout.write(`${line}\n`) : (line: string) => fs.writeSync(toFile, `${line}\n`);
  const sessionStdout = toFile === undefined ? redirectTo(io.stderr) : io.stdout;
  try {
    return await runSession(run, { ...io, stdout: sessionStdout }, { record: write });
  } finally {
    if (toFile !== undefined) fs.closeSync(toFile);
  }
}

/** A stream that forwards what is written to it. */
function redirectTo(target: NodeJS.WritableStream): NodeJS.WritableStream {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => target.write(chunk));
  return stream;
}
