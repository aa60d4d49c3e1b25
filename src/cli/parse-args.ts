import { Command, CommanderError } from 'commander';
import { ConfigError } from '../errors.js';
import { addHooksCommand, type HooksCommandOptions } from './hooks-command/parse-hooks-args.js';
import { addMcpCommand, type McpListOptions } from './mcp-command.js';
import { addTimelineCommand, type TimelineOptions } from './timeline-command.js';
import { addServeCommand, type ServeCommandOptions } from './serve-args.js';
import { declareRunFlags } from './run-flag-declarations.js';
import { readRunFlags } from './run-flags.js';
import type { RunCommandOptions } from './run-command-types.js';

export type { RunCommandOptions, SystemPromptFlags } from './run-command-types.js';
export { splitToolList } from './tool-list.js';

/** `hookloop demo [--keep] [--record-requests FILE]`. */
export interface DemoCommandOptions {
  readonly command: 'demo';
  readonly keep: boolean;
  /** Append every model request of the demo to this file (as `--record-requests` does for a run). */
  readonly recordRequests?: string;
}

/** Help or version text was requested or produced; print it and exit with `exitCode`. */
export interface InfoResult {
  readonly command: 'info';
  readonly text: string;
  readonly exitCode: number;
}

/** Every command `parseArgs` can return; `command` tells which. */
export type ParsedCommand =
  | RunCommandOptions
  | DemoCommandOptions
  | HooksCommandOptions
  | McpListOptions
  | TimelineOptions
  | ServeCommandOptions
  | InfoResult;

/**
 * Parses `argv` (without `node` and the script) into a command. Pure: prints nothing, exits nothing.
 * Flags follow Claude Code's where they overlap, so the same scenario runs under both.
 * @throws ConfigError for an unknown flag, a bad value (e.g. an unknown permission mode) or a missing argument.
 */
export function parseArgs(argv: readonly string[], version: string): ParsedCommand {
  let output = '';
  let parsed: ParsedCommand | undefined;
  const program = new Command('hookloop')
    .description('An agent harness whose every extension point is a hook (Claude Code compatible).')
    .version(version, '-v, --version')
    .exitOverride()
    // Options of `hookloop` itself come before a subcommand, so `hooks list --settings F` keeps its own.
    .enablePositionalOptions()
    .configureOutput({ writeOut: (text) => (output += text), writeErr: (text) => (output += text) });
  declareRunFlags(program).action(
    (prompt: string | undefined, flags: Record<string, unknown>, command: Command) => {
      parsed = readRunFlags(prompt, flags, command);
    },
  );
  program
    .command('demo')
    .description('run the offline demo: a scripted session over a sample project with real hook scripts')
    .option('--keep', 'keep the demo directory afterwards', false)
    .option(
      '--record-requests <file>',
      'append every model request (system prompt, memory, tools, messages) to FILE as JSON lines',
    )
    .action((flags: { keep: boolean; recordRequests?: string }) => {
      parsed = {
        command: 'demo',
        keep: flags.keep,
        ...(flags.recordRequests !== undefined ? { recordRequests: flags.recordRequests } : {}),
      };
    });
  addHooksCommand(program, (options) => {
    parsed = options;
  });
  addMcpCommand(program, (options) => {
    parsed = options;
  });
  addTimelineCommand(program, (options) => {
    parsed = options;
  });
  addServeCommand(program, (options) => {
    parsed = options;
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return { command: 'info', text: output, exitCode: 0 };
      }
      throw new ConfigError(error.message.replace(/^error: /, ''), { field: 'argv' });
    }
    throw error;
  }
  if (!parsed) return { command: 'info', text: program.helpInformation(), exitCode: 2 };
  return parsed;
}
