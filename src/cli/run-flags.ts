import type { Command } from 'commander';
import { parseSettingSources } from '../hooks/settings/setting-sources.js';
import { ConfigError } from '../errors.js';
import { parseRule } from '../permissions/rule.js';
import type { PendingDecision, PendingDecisions } from '../session/pending-calls.js';
import type { CliPermissionMode } from '../run/permission-mode.js';
import { splitToolList } from './tool-list.js';
import type { ProviderName } from './select-model.js';
import type { RunCommandOptions, SystemPromptFlags } from './run-command-types.js';

/**
 * The run command's flags, as commander parsed them, checked and turned into options.
 * @throws ConfigError for extra words, flag combinations Claude Code refuses, a bad rule or decision.
 */
export function readRunFlags(
  prompt: string | undefined,
  flags: Record<string, unknown>,
  command: Command,
): RunCommandOptions {
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
  if (flags['includePartialMessages'] === true && (printFlag === undefined || outputFormat !== 'stream-json'))
    throw new ConfigError('--include-partial-messages requires --print and --output-format=stream-json.', {
      field: '--include-partial-messages',
    });
  return {
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
    ...durableFlags(flags),
    ...(flags['permissionPromptTool'] !== undefined
      ? { permissionPromptTool: promptTool(flags['permissionPromptTool'] as string) }
      : {}),
    decisions: pendingDecisions(
      flags['approve'] as string[] | undefined,
      flags['deny'] as string[] | undefined,
      flags['resume'] !== undefined || flags['continue'] === true,
    ),
  };
}

/** `--durable URL` and `--restate-admin URL`, each checked to be an http(s) URL. */
function durableFlags(flags: Record<string, unknown>): { durable?: string; restateAdmin?: string } {
  const durable = flags['durable'] as string | undefined;
  const admin = flags['restateAdmin'] as string | undefined;
  if (admin !== undefined && durable === undefined)
    throw new ConfigError('--restate-admin goes with --durable URL', { field: '--restate-admin' });
  return {
    ...(durable !== undefined ? { durable: httpUrl('--durable', durable) } : {}),
    ...(admin !== undefined ? { restateAdmin: httpUrl('--restate-admin', admin) } : {}),
  };
}

/**
 * `value` as an http(s) URL without a trailing slash.
 * @throws ConfigError naming `flag` when it is not one.
 */
export function httpUrl(flag: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`${flag}: expected an http(s) URL such as http://127.0.0.1:8080, got "${value}"`, {
      field: flag,
    });
  return url.href.replace(/\/+$/, '');
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

/** A `--max-budget-usd` amount. @throws ConfigError unless it is a positive number. */
export function positiveAmount(flag: string, value: string): number {
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

/** A count flag's value. @throws ConfigError unless it is a positive whole number. */
export function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new ConfigError(`${flag}: expected a positive whole number, got "${value}"`, { field: flag });
  return number;
}
