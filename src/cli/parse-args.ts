import { Command, CommanderError, Option } from 'commander';
import { parseSettingSources, type SettingSource } from '../hooks/settings/setting-sources.js';
import { ConfigError } from '../errors.js';
import { parseRule } from '../permissions/rule.js';
import type { PendingDecision, PendingDecisions } from '../session/pending-calls.js';
import { CLI_PERMISSION_MODES, type CliPermissionMode } from '../run/permission-mode.js';
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
  /** `--setting-sources`: which of the user, project and local settings files to read (all when absent). */
  readonly settingSources?: readonly SettingSource[];
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
  /** The system-prompt flags as given (files not read yet): see src/cli/system-prompt-flags.ts. */
  readonly systemPrompt: SystemPromptFlags;
  /** `--fork-session`: with --resume/--continue, go on under a new session id with a copy of the transcript. */
  readonly forkSession: boolean;
  /** `--fallback-model M[,M…]`: the models to switch to when the main one stays overloaded or unavailable after its retries. */
  readonly fallbackModels: readonly string[];
  /** `--max-budget-usd N`: end the run once its estimated cost passes N dollars. */
  readonly maxBudgetUsd: number | undefined;
  /** `--permission-prompt-tool mcp__<server>__<tool>`: an MCP tool decides what the policy asks about (headless approvals). */
  readonly permissionPromptTool?: string;
}

/** `--system-prompt`, `--system-prompt-file`, `--append-system-prompt`, `--append-system-prompt-file`. */
export interface SystemPromptFlags {
  readonly replace?: string;
  readonly replaceFile?: string;
  readonly append?: string;
  readonly appendFile?: string;
}

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

export type ParsedCommand =
  | RunCommandOptions
  | DemoCommandOptions
  | HooksCommandOptions
  | McpListOptions
  | TimelineOptions
  | InfoResult;

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
    .option(
      '-p, --print [prompt]',
      'run one prompt headless and print the answer (the prompt may come on stdin: echo "…" | hookloop -p)',
    )
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON) with hooks and permissions')
    .option(
      '--setting-sources <sources>',
      'comma-separated settings files to read: user, project, local (--settings always counts)',
    )
    .addOption(
      new Option('--output-format <format>', 'text, json or stream-json')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--input-format <format>',
        'text, or stream-json: user messages as JSON lines on stdin (needs --output-format stream-json)',
      )
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .option(
      '--include-partial-messages',
      "with -p --output-format stream-json: also stream the model's partial answer as stream_event lines",
      false,
    )
    .addOption(
      new Option(
        '--permission-mode <mode>',
        'permission mode (auto runs as dontAsk: hookloop has no classifier)',
      ).choices([...CLI_PERMISSION_MODES]),
    )
    .option('--allowedTools <rules...>', 'allow rules, e.g. "Bash(git:*)" Edit')
    .option('--disallowedTools <rules...>', 'deny rules')
    .option('--add-dir <dirs...>', 'extra directories the file tools may use')
    .option('--max-turns <n>', 'maximum model turns', (value) => positiveInteger('--max-turns', value))
    .addOption(
      new Option('--provider <name>', 'model provider (default: inferred from the environment)').choices([
        ...PROVIDER_NAMES,
      ]),
    )
    .option('--model <id>', 'model id, e.g. claude-sonnet-5-5 or gpt-5')
    .option(
      '--model-script <file>',
      'replay scripted model turns (a scenario.json or an array of Anthropic content-block turns)',
    )
    .option('--session-id <uuid>', 'the session id to use')
    .option('-c, --continue', 'continue the latest session of this directory', false)
    .option('-r, --resume <session-id>', 'continue the session with this id')
    .option(
      '--approve <tool-use-id>',
      'approve a pending tool call of the resumed session (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--deny <tool-use-id[=reason]>',
      'deny a pending tool call of the resumed session; the reason is its error result (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--verbose', 'print the lifecycle log on stderr', false)
    .option(
      '--plugin-dir <dir>',
      'load a Claude Code plugin directory: its hooks/hooks.json joins the settings (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--mcp-config <configs...>',
      'MCP servers from JSON files or strings ({"mcpServers": …}); repeatable',
    )
    .option(
      '--strict-mcp-config',
      'use only the --mcp-config servers, ignoring .mcp.json, ~/.claude.json and plugins',
      false,
    )
    .option(
      '--permission-prompt-tool <tool>',
      'an MCP tool (mcp__server__tool) that decides permission prompts headless',
    )
    .option(
      '--agents <json>',
      'subagent definitions as JSON: {"<name>": {"description": …, "prompt": …, "tools": […]}}',
    )
    .option(
      '--record-requests <file>',
      'append every model request (Anthropic wire shape) to FILE as JSON lines, for conformance checks',
    )
    .option(
      '--system-prompt <text>',
      "replace hookloop's system prompt (CLAUDE.md files still reach the model)",
    )
    .option('--system-prompt-file <file>', "replace hookloop's system prompt with a file's text")
    .option('--append-system-prompt <text>', 'add text at the end of the system prompt')
    .option('--append-system-prompt-file <file>', "add a file's text at the end of the system prompt")
    .option(
      '--dangerously-skip-permissions',
      'run in bypassPermissions mode (deny rules and the workspace boundary still hold)',
      false,
    )
    .option(
      '--fork-session',
      'with --resume/--continue: continue under a new session id, with a copy of the transcript',
      false,
    )
    .option(
      '--fallback-model <models>',
      'models to switch to (comma-separated, in order) when the main model stays overloaded or unavailable',
    )
    .option(
      '--max-budget-usd <amount>',
      'stop once the estimated cost of the run passes this many dollars',
      (value) => positiveAmount('--max-budget-usd', value),
    )
    .action((prompt: string | undefined, flags: Record<string, unknown>, command: Command) => {
      const printFlag = flags['print'];
      // Unquoted words (`-p fix the build`) would otherwise be split into a prompt and dropped words.
      const words = [...(typeof printFlag === 'string' ? [printFlag] : []), ...command.args];
      if (words.length > 1) {
        throw new ConfigError(
          `unexpected extra argument ${JSON.stringify(words[1])}: the prompt is one argument; quote it, e.g. -p ${JSON.stringify(words.join(' '))}`,
          { field: 'argv' },
        );
      }
      const outputFormat = flags['outputFormat'] as 'text' | 'json' | 'stream-json';
      // Claude Code's own words for these two combinations.
      if (flags['inputFormat'] === 'stream-json' && outputFormat !== 'stream-json')
        throw new ConfigError('--input-format=stream-json requires output-format=stream-json.', {
          field: '--input-format',
        });
      if (
        flags['includePartialMessages'] === true &&
        (printFlag === undefined || outputFormat !== 'stream-json')
      )
        throw new ConfigError(
          '--include-partial-messages requires --print and --output-format=stream-json.',
          { field: '--include-partial-messages' },
        );
      parsed = {
        command: 'run',
        prompt: typeof printFlag === 'string' ? printFlag : prompt,
        print: printFlag !== undefined,
        settings: flags['settings'] as string | undefined,
        ...(typeof flags['settingSources'] === 'string'
          ? { settingSources: parseSettingSources(flags['settingSources']) }
          : {}),
        outputFormat,
        inputFormat: flags['inputFormat'] as 'text' | 'stream-json',
        includePartialMessages: flags['includePartialMessages'] === true,
        // As in Claude Code, the flag wins over --permission-mode.
        permissionMode:
          flags['dangerouslySkipPermissions'] === true
            ? 'bypassPermissions'
            : (flags['permissionMode'] as CliPermissionMode | undefined),
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
        systemPrompt: systemPromptFlags(flags),
        forkSession: forkSession(flags),
        fallbackModels: splitModels(flags['fallbackModel'] as string | undefined),
        maxBudgetUsd: flags['maxBudgetUsd'] as number | undefined,
        ...(flags['permissionPromptTool'] !== undefined
          ? { permissionPromptTool: promptTool(flags['permissionPromptTool'] as string) }
          : {}),
        decisions: pendingDecisions(
          flags['approve'] as string[] | undefined,
          flags['deny'] as string[] | undefined,
          flags['resume'] !== undefined || flags['continue'] === true,
        ),
      };
    });
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
function pendingDecisions(
  approve: readonly string[] | undefined,
  deny: readonly string[] | undefined,
  resuming: boolean,
): PendingDecisions | undefined {
  if (approve === undefined && deny === undefined) return undefined;
  const flag = approve !== undefined ? '--approve' : '--deny';
  if (!resuming)
    throw new ConfigError(
      `${flag}: decides the pending tool calls of a saved session; name it with --resume ID or --continue`,
      { field: flag },
    );
  const decisions: Record<string, PendingDecision> = {};
  const add = (flag: string, id: string, decision: PendingDecision) => {
    if (id === '')
      throw new ConfigError(`${flag}: expected a tool_use id, e.g. ${flag} toolu_01`, { field: flag });
    if (decisions[id] !== undefined)
      throw new ConfigError(`${flag} ${id}: that call is already decided by another --approve/--deny`, {
        field: flag,
      });
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

/** The system-prompt flags; a text and a file for the same part cannot both be given. @throws ConfigError naming both flags. */
function systemPromptFlags(flags: Record<string, unknown>): SystemPromptFlags {
  const pick = (text: string, file: string, flagName: string) => {
    const value = flags[text] as string | undefined;
    const path = flags[file] as string | undefined;
    if (value !== undefined && path !== undefined)
      throw new ConfigError(
        `--${flagName} and --${flagName}-file cannot be combined: give the text or a file`,
        { field: `--${flagName}` },
      );
    return { value, path };
  };
  const replace = pick('systemPrompt', 'systemPromptFile', 'system-prompt');
  const append = pick('appendSystemPrompt', 'appendSystemPromptFile', 'append-system-prompt');
  return {
    ...(replace.value !== undefined ? { replace: replace.value } : {}),
    ...(replace.path !== undefined ? { replaceFile: replace.path } : {}),
    ...(append.value !== undefined ? { append: append.value } : {}),
    ...(append.path !== undefined ? { appendFile: append.path } : {}),
  };
}

/** `--fork-session`, which only means something for a continued session. @throws ConfigError without --resume/--continue. */
function forkSession(flags: Record<string, unknown>): boolean {
  if (flags['forkSession'] !== true) return false;
  if (flags['resume'] === undefined && flags['continue'] !== true)
    throw new ConfigError('--fork-session: forks a saved session; name it with --resume ID or --continue', {
      field: '--fork-session',
    });
  return true;
}

function splitModels(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter((model) => model !== '');
}

function positiveAmount(flag: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0)
    throw new ConfigError(`${flag}: expected a positive number of dollars, e.g. 0.50, got "${value}"`, {
      field: flag,
    });
  return number;
}

/** The `--permission-prompt-tool` name. @throws ConfigError when it is not an MCP tool name. */
function promptTool(value: string): string {
  if (!/^mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/.test(value))
    throw new ConfigError(
      `--permission-prompt-tool: expected an MCP tool name (mcp__<server>__<tool>), got "${value}"`,
      { field: '--permission-prompt-tool' },
    );
  return value;
}

function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new ConfigError(`${flag}: expected a positive whole number, got "${value}"`, { field: flag });
  return number;
}
