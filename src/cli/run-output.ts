import type { RunResult } from '../run/run-agent.js';
import type { RunCommandOptions } from './parse-args.js';
import { exitCodeOf, resultJson } from './result-json.js';
import { streamJsonWriter, textStreamPrinter } from './stream-output.js';
import type { CliIo } from './cli-io.js';

/** A headless run's end: the failure line, the JSON result or the answer, and the exit code. */
export function printResult(
  result: RunResult,
  options: RunCommandOptions,
  io: CliIo,
  output: { alreadyPrinted: (text: string) => boolean },
  failures: readonly string[],
  termination: { exitCode: (code: number) => number },
): number {
  if (result.terminalReason === 'api_error')
    io.stderr.write(`hookloop: model request failed: ${failures.at(-1) ?? result.result}\n`);
  if (options.outputFormat === 'json' || options.outputFormat === 'stream-json')
    io.stdout.write(`${JSON.stringify(resultJson(result))}\n`);
  else if (result.result && !output.alreadyPrinted(result.result)) io.stdout.write(`${result.result}\n`);
  return termination.exitCode(exitCodeOf(result));
}

/** How the run's output reaches stdout: streamed text (text), nothing until the end (json), or one JSON line per event (stream-json). */
export function outputObservers(
  format: RunCommandOptions['outputFormat'],
  io: CliIo,
  sessionId: string,
  partialMessages = false,
) {
  if (format === 'stream-json')
    return {
      observers: [streamJsonWriter((line) => io.stdout.write(line), sessionId, { partialMessages })],
      alreadyPrinted: () => false,
    };
  if (format === 'json') return { observers: [], alreadyPrinted: () => false };
  const printer = textStreamPrinter((text) => io.stdout.write(text));
  return { observers: [printer.observer], alreadyPrinted: printer.alreadyPrinted };
}
