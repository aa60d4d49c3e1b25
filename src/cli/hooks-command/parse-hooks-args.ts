import { InvalidArgumentError, Option, type Command } from 'commander';
import { PERMISSION_MODES, type PermissionMode } from '../../permissions/types.js';

/**
 * `hookloop hooks list|validate|test|record`: the hook tooling's command line. Parsing only; the
 * commands themselves are in this directory (run-hooks-command.ts).
 */

/** Where hooks come from, as for a run: `--settings` and `--plugin-dir` (the usual files are always read). */
export interface HookSourcesOptions {
  readonly settings: string | undefined;
  readonly pluginDirs: readonly string[];
}

/** `hookloop hooks list [--event E] [--json]`. */
export interface HooksListOptions extends HookSourcesOptions {
  readonly command: 'hooks';
  readonly action: 'list';
  readonly event: string | undefined;
  readonly json: boolean;
}

/** `hookloop hooks validate [FILES…] [--json]`: FILES are settings/hooks files or plugin directories; none = the run's sources. */
export interface HooksValidateOptions extends HookSourcesOptions {
  readonly command: 'hooks';
  readonly action: 'validate';
  readonly files: readonly string[];
  readonly json: boolean;
}

/**
 * `hookloop hooks test [EVENT] [--tool NAME --input JSON | --payload FILE [--line N | --all]] …`:
 * one event through the real pipeline. `input`/`response` are JSON text; `payload` a file (or `-`
 * for stdin) whose fields override the payload built from the other options. `event` may be left
 * out with `payload`: each recorded payload names its own (`hook_event_name`). `line` (1-based, as
 * an editor counts the file's lines) picks one line of JSON lines; `all` replays every line (of
 * `event`, when given), one test each.
 */
export interface HooksTestOptions extends HookSourcesOptions {
  readonly command: 'hooks';
  readonly action: 'test';
  readonly event: string | undefined;
  readonly tool: string | undefined;
  readonly input: string | undefined;
  readonly response: string | undefined;
  readonly prompt: string | undefined;
  readonly payload: string | undefined;
  readonly line: number | undefined;
  readonly all: boolean;
  readonly permissionMode: PermissionMode | undefined;
  readonly sessionId: string | undefined;
  readonly json: boolean;
}

/**
 * `hookloop hooks record [-o FILE] [--settings F] [--plugin-dir D] -- RUN-ARGS…`: run a session
 * (RUN-ARGS as for `hookloop`) and keep every payload. `--settings` and `--plugin-dir` join the run's.
 */
export interface HooksRecordOptions extends HookSourcesOptions {
  readonly command: 'hooks';
  readonly action: 'record';
  readonly output: string | undefined;
  readonly runArgs: readonly string[];
}

/** What `hookloop hooks …` was asked to do. */
export type HooksCommandOptions =
  HooksListOptions | HooksValidateOptions | HooksTestOptions | HooksRecordOptions;

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--line N`: a line number from 1. @throws InvalidArgumentError (commander prints it as a usage error). */
function parseLine(value: string): number {
  const line = Number(value);
  if (!/^\d+$/.test(value) || line < 1)
    throw new InvalidArgumentError(`expected a line number from 1, got ${JSON.stringify(value)}`);
  return line;
}

function sourceFlags(flags: Record<string, unknown>): HookSourcesOptions {
  return {
    settings: flags['settings'] as string | undefined,
    pluginDirs: (flags['pluginDir'] as string[] | undefined) ?? [],
  };
}

function withSourceOptions(command: Command): Command {
  return command
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON), as for a run')
    .option('--plugin-dir <dir>', 'load a Claude Code plugin directory (repeatable)', collect);
}

/**
 * Adds the `hooks` command and its subcommands to `program`; `done` receives what was asked.
 * Pure: prints nothing (commander's output goes where `program` sends it).
 */
export function addHooksCommand(program: Command, done: (options: HooksCommandOptions) => void): void {
  const hooks = program
    .command('hooks')
    .description('inspect, check and dry-run hook configuration (settings files and plugins)');

  withSourceOptions(
    hooks
      .command('list')
      .description('effective handlers per event, after merge and dedupe, with the file each came from'),
  )
    .option('--event <name>', 'only this event')
    .option('--json', 'print JSON', false)
    .action((flags: Record<string, unknown>) =>
      done({
        command: 'hooks',
        action: 'list',
        ...sourceFlags(flags),
        event: flags['event'] as string | undefined,
        json: flags['json'] === true,
      }),
    );

  withSourceOptions(
    hooks
      .command('validate')
      .description('check settings/hooks files or plugin dirs: schema, events, matchers, if rules, commands'),
  )
    .argument(
      '[files...]',
      'settings or hooks.json files, or plugin directories (default: the files a run reads)',
    )
    .option('--json', 'print JSON', false)
    .action((files: string[], flags: Record<string, unknown>) =>
      done({
        command: 'hooks',
        action: 'validate',
        ...sourceFlags(flags),
        files,
        json: flags['json'] === true,
      }),
    );

  withSourceOptions(
    hooks
      .command('test')
      .description('run one event through the real matcher, if, dedupe, execution and merge pipeline'),
  )
    .argument(
      '[event]',
      "the event, e.g. PreToolUse (with --payload: default, the payload's hook_event_name)",
    )
    .option('--tool <name>', 'tool events: the tool name, e.g. Bash')
    .option('--input <json>', 'tool events: the tool input as JSON, e.g. \'{"command":"ls"}\'')
    .option('--response <json>', 'PostToolUse: the tool_response as JSON')
    .option('--prompt <text>', 'UserPromptSubmit: the prompt')
    .option(
      '--payload <file>',
      'a JSON payload, or JSON lines such as the output of `hooks record` (- = stdin); its fields override the built ones',
    )
    .option(
      '--line <n>',
      'with --payload: replay line N of the JSON lines (default: the first line, of EVENT when given)',
      parseLine,
    )
    .option('--all', 'with --payload: replay every line (of EVENT when given), one test each', false)
    .addOption(
      new Option('--permission-mode <mode>', 'permission_mode in the payload').choices([...PERMISSION_MODES]),
    )
    .option('--session-id <uuid>', 'session_id in the payload')
    .option('--json', 'print JSON', false)
    .action((event: string | undefined, flags: Record<string, unknown>) =>
      done({
        command: 'hooks',
        action: 'test',
        ...sourceFlags(flags),
        event,
        tool: flags['tool'] as string | undefined,
        input: flags['input'] as string | undefined,
        response: flags['response'] as string | undefined,
        prompt: flags['prompt'] as string | undefined,
        payload: flags['payload'] as string | undefined,
        line: flags['line'] as number | undefined,
        all: flags['all'] === true,
        permissionMode: flags['permissionMode'] as PermissionMode | undefined,
        sessionId: flags['sessionId'] as string | undefined,
        json: flags['json'] === true,
      }),
    );

  withSourceOptions(hooks.command('record'))
    .description(
      'run a session and print every hook payload it produced, one JSON line each: hooks record -- -p PROMPT …',
    )
    .argument('[run-args...]', 'the arguments of the run (after --)')
    .option('-o, --output <file>', 'write the JSON lines to FILE instead of stdout')
    .allowUnknownOption()
    .action((runArgs: string[], flags: Record<string, unknown>) =>
      done({
        command: 'hooks',
        action: 'record',
        ...sourceFlags(flags),
        output: flags['output'] as string | undefined,
        runArgs,
      }),
    );
}
