import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from '../errors.js';
import { parseRule } from '../permissions/rule.js';
import type { PendingDecision, PendingDecisions } from '../session/pending-calls.js';
import { CLI_PERMISSION_MODES, type CliPermissionMode } from './permission-mode.js';
import { addHooksCommand, type HooksCommandOptions } from './hooks-command/parse-hooks-args.js';
import { addMcpCommand, type McpListOptions } from './mcp-command.js';
import { addTimelineCommand, type TimelineOptions } from './timeline-command.js';
import { PROVIDER_NAMES, type ProviderName } from './select-model.js';

/** What `hookloop [-p] PROMPT …` was asked to do, after parsing and checking the flags. */
export interface RunCommandOptions {
  readonly command: 'run';
  readonly prompt: string | undefined;
  readonly print: boolean;
  readonly settings: string | undefined;
  /** `text` (answer streamed as it arrives), `json` (one result object), `stream-json` (one JSON event per line). */
  readonly outputFormat: 'text' | 'json' | 'stream-json';
  /** `--input-format stream-json`: user messages arrive as JSON lines on stdin, each starting a turn, until EOF. */
  readonly inputFormat: 'text' | 'stream-json';
  /** `--include-partial-messages`: stream-json output also carries the model's deltas as `stream_event` lines. */
  readonly includePartialMessages: boolean;
  readonly permissionMode: CliPermissionMode | undefined;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly addDirs: readonly string[];
  readonly maxTurns: number | undefined;
  readonly modelScript: string | undefined;
  /** `--provider`; undefined = inferred (see selectModel). */
  readonly provider: ProviderName | undefined;
  /** `--model`: the model id for the chosen provider. */
  readonly model: string | undefined;
  readonly verbose: boolean;
  readonly sessionId: string | undefined;
  /** `-c, --continue`: go on with the latest session of this directory. */
  readonly continue: boolean;
  /** `-r, --resume ID`: go on with that session. */
  readonly resume: string | undefined;
  readonly recordRequests: string | undefined;
  /**
   * `--approve ID` / `--deny ID[=reason]`, repeatable (hookloop's): decisions on the pending tool
   * calls of the `--resume`d / `--continue`d session; undefined when neither flag was given.
   */
  readonly decisions: PendingDecisions | undefined;
  /** `--plugin-dir`, repeatable: Claude Code plugin directories whose hooks join the settings' hooks. */
  readonly pluginDirs: readonly string[];
  /** `--mcp-config FILE|JSON…`, repeatable: MCP server configs (`{ "mcpServers": … }`). */
  readonly mcpConfigs: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers, no other MCP source. */
  readonly strictMcpConfig: boolean;
  /** `--agents JSON`: subagent definitions `{ "<name>": { description, prompt, tools, … } }`, above every file's. */
  readonly agents: string | undefined;
}

/** `hookloop demo [--keep]`. */
export interface DemoCommandOptions {
  readonly command: 'demo';
  readonly keep: boolean;
}

/** Help or version text was requested or produced; print it and exit with `exitCode`. */
export interface InfoResult {
  readonly command: 'info';
  readonly text: string;
  readonly exitCode: number;
}

export type ParsedCommand = RunCommandOptions | DemoCommandOptions | HooksCommandOptions | McpListOptions | TimelineOptions | InfoResult;

/** Splits Claude Code tool lists: `--allowedTools "Bash(git:*) Edit"` or `Read,Write`; parentheses keep their spaces and commas. */
export function splitToolList(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) rules.push(current.trim());
        current = '';
      } else current += char;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

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
    .configureOutput({ writeOut: (text) => (output += text), writeErr: (text) => (output += text) })
    .argument('[prompt]', 'the prompt (same as -p); text piped on stdin is added after it')
    // Extra words are reported by the action, with a hint to quote them.
    .allowExcessArguments()
    .option('-p, --print [prompt]', 'run one prompt headless and print the answer (the prompt may come on stdin: echo "…" | hookloop -p)')
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON) with hooks and permissions')
    .addOption(new Option('--output-format <format>', 'text, json or stream-json').choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--input-format <format>', 'text, or stream-json: user messages as JSON lines on stdin (needs --output-format stream-json)').choices(['text', 'stream-json']).default('text'))
    .option('--include-partial-messages', 'with -p --output-format stream-json: also stream the model\'s partial answer as stream_event lines', false)
    .addOption(new Option('--permission-mode <mode>', 'permission mode (auto runs as dontAsk: hookloop has no classifier)').choices([...CLI_PERMISSION_MODES]))
    .option('--allowedTools <rules...>', 'allow rules, e.g. "Bash(git:*)" Edit')
    .option('--disallowedTools <rules...>', 'deny rules')
    .option('--add-dir <dirs...>', 'extra directories the file tools may use')
    .option('--max-turns <n>', 'maximum model turns', (value) => positiveInteger('--max-turns', value))
    .addOption(new Option('--provider <name>', 'model provider (default: inferred from the environment)').choices([...PROVIDER_NAMES]))
    .option('--model <id>', 'model id, e.g. claude-sonnet-5-5 or gpt-5')
    .option('--model-script <file>', 'replay scripted model turns (a scenario.json or an array of Anthropic content-block turns)')
    .option('--session-id <uuid>', 'the session id to use')
    .option('-c, --continue', 'continue the latest session of this directory', false)
    .option('-r, --resume <session-id>', 'continue the session with this id')
    .option('--approve <tool-use-id>', 'approve a pending tool call of the resumed session (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--deny <tool-use-id[=reason]>', 'deny a pending tool call of the resumed session; the reason is its error result (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--verbose', 'print the lifecycle log on stderr', false)
    .option('--plugin-dir <dir>', 'load a Claude Code plugin directory: its hooks/hooks.json joins the settings (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--mcp-config <configs...>', 'MCP servers from JSON files or strings ({"mcpServers": …}); repeatable')
    .option('--strict-mcp-config', 'use only the --mcp-config servers, ignoring .mcp.json, ~/.claude.json and plugins', false)
    .option('--agents <json>', 'subagent definitions as JSON: {"<name>": {"description": …, "prompt": …, "tools": […]}}')
    .option('--record-requests <file>', 'append every model request (Anthropic wire shape) to FILE as JSON lines, for conformance checks')
    .action((prompt: string | undefined, flags: Record<string, unknown>, command: Command) => {
      const printFlag = flags['print'];
      // Unquoted words (`-p fix the build`) would otherwise be split into a prompt and dropped words.
      const words = [...(typeof printFlag === 'string' ? [printFlag] : []), ...command.args];
      if (words.length > 1) {
        throw new ConfigError(`unexpected extra argument ${JSON.stringify(words[1])}: the prompt is one argument; quote it, e.g. -p ${JSON.stringify(words.join(' '))}`, { field: 'argv' });
      }
      const outputFormat = flags['outputFormat'] as 'text' | 'json' | 'stream-json';
      // Claude Code's own words for these two combinations.
      if (flags['inputFormat'] === 'stream-json' && outputFormat !== 'stream-json') throw new ConfigError('--input-format=stream-json requires output-format=stream-json.', { field: '--input-format' });
      if (flags['includePartialMessages'] === true && (printFlag === undefined || outputFormat !== 'stream-json')) throw new ConfigError('--include-partial-messages requires --print and --output-format=stream-json.', { field: '--include-partial-messages' });
      parsed = {
        command: 'run',
        prompt: typeof printFlag === 'string' ? printFlag : prompt,
        print: printFlag !== undefined,
        settings: flags['settings'] as string | undefined,
        outputFormat,
        inputFormat: flags['inputFormat'] as 'text' | 'stream-json',
        includePartialMessages: flags['includePartialMessages'] === true,
        permissionMode: flags['permissionMode'] as CliPermissionMode | undefined,
        allowedTools: checkedRules('--allowedTools', flags['allowedTools']),
        disallowedTools: checkedRules('--disallowedTools', flags['disallowedTools']),
        addDirs: (flags['addDir'] as string[] | undefined) ?? [],
        maxTurns: flags['maxTurns'] as number | undefined,
        modelScript: flags['modelScript'] as string | undefined,
        provider: flags['provider'] as ProviderName | undefined,
        model: flags['model'] as string | undefined,
        verbose: flags['verbose'] === true,
        sessionId: flags['sessionId'] as string | undefined,
        continue: flags['continue'] === true,
        resume: flags['resume'] as string | undefined,
        recordRequests: flags['recordRequests'] as string | undefined,
        pluginDirs: (flags['pluginDir'] as string[] | undefined) ?? [],
        mcpConfigs: (flags['mcpConfig'] as string[] | undefined) ?? [],
        strictMcpConfig: flags['strictMcpConfig'] === true,
        agents: flags['agents'] as string | undefined,
        decisions: pendingDecisions(flags['approve'] as string[] | undefined, flags['deny'] as string[] | undefined, flags['resume'] !== undefined || flags['continue'] === true),
      };
    });
  program
    .command('demo')
    .description('run the offline demo: a scripted session over a sample project with real hook scripts')
    .option('--keep', 'keep the demo directory afterwards', false)
    .action((flags: { keep: boolean }) => {
      parsed = { command: 'demo', keep: flags.keep };
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
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return { command: 'info', text: output, exitCode: 0 };
      }
      throw new ConfigError(error.message.replace(/^error: /, ''), { field: 'argv' });
    }
    throw error;
  }
  if (!parsed) return { command: 'info', text: program.helpInformation(), exitCode: 2 };
  return parsed;
}

/** The rules of a tool-list flag, each checked: a bad one names the flag and its index (`--allowedTools[1]: invalid permission rule …`). */
function checkedRules(flag: string, values: unknown): string[] {
  const rules = splitToolList((values as string[] | undefined) ?? []);
  rules.forEach((rule, index) => parseRule(rule, `${flag}[${index}]`));
  return rules;
}

/**
 * `--approve ID` and `--deny ID[=reason]` as decisions; undefined when neither was given.
 * @throws ConfigError without `--resume`/`--continue`, for an empty id, or for an id decided twice.
 */
function pendingDecisions(approve: readonly string[] | undefined, deny: readonly string[] | undefined, resuming: boolean): PendingDecisions | undefined {
  if (approve === undefined && deny === undefined) return undefined;
  const flag = approve !== undefined ? '--approve' : '--deny';
  if (!resuming) throw new ConfigError(`${flag}: decides the pending tool calls of a saved session; name it with --resume ID or --continue`, { field: flag });
  const decisions: Record<string, PendingDecision> = {};
  const add = (flag: string, id: string, decision: PendingDecision) => {
    if (id === '') throw new ConfigError(`${flag}: expected a tool_use id, e.g. ${flag} toolu_01`, { field: flag });
    if (decisions[id] !== undefined) throw new ConfigError(`${flag} ${id}: that call is already decided by another --approve/--deny`, { field: flag });
    decisions[id] = decision;
  };
  for (const id of approve ?? []) add('--approve', id.trim(), { behavior: 'allow' });
  for (const value of deny ?? []) {
    const split = value.indexOf('=');
    const id = (split < 0 ? value : value.slice(0, split)).trim();
    const reason = split < 0 ? '' : value.slice(split + 1);
    add('--deny', id, reason === '' ? { behavior: 'deny' } : { behavior: 'deny', message: reason });
  }
  return decisions;
}

function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new ConfigError(`${flag}: expected a positive whole number, got "${value}"`, { field: flag });
  return number;
}
