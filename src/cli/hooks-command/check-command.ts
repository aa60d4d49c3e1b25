import fs from 'node:fs';
import path from 'node:path';
import type { CommandHandlerConfig } from '../../hooks/settings/settings-schema.js';
import { parseBashCommand, type ShellWord } from '../../shell/index.js';

/**
 * `hooks validate`'s check of a command hook: does the program it starts exist and may it be run?
 * Only what can be known before the hook runs is checked: `$CLAUDE_PROJECT_DIR`,
 * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and a leading `~/` are expanded; a word with any
 * other expansion is left alone. A missing program is what makes a hook fail with exit 127 at run
 * time, which Claude Code treats as a non-blocking error: a guard that never runs, silently.
 */

/** What the expansions stand for. `path` is the PATH programs are looked up in. */
export interface CommandContext {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly pluginRoot?: string;
  readonly pluginData?: string;
  readonly path: string;
}

/** One finding: `error` when the hook cannot work, `warning` when it may not. */
export interface CommandProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

// Shell builtins and keywords: nothing to find on disk.
const BUILTINS = new Set(
  (
    '. : [ [[ alias bg break builtin cd command continue declare echo eval exec exit export false fc fg getopts hash ' +
    'jobs kill let local printf pwd read readonly return set shift source test times trap true type typeset ulimit umask unalias unset wait ' +
    'if then else elif fi for while until do done case esac function select time {'
  ).split(' '),
);
// Programs that run a script named by their first operand.
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'python',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'tsx',
  'ts-node',
  'uv',
  'pwsh',
]);
const INLINE_CODE_OPTIONS = new Set(['-c', '-e', '--eval', '-p', '--print', '-m', '-r', '--command']);
const SCRIPT_EXTENSION = /\.(py|js|mjs|cjs|ts|mts|sh|bash|zsh|rb|pl|php|ps1)$/;

/**
 * The problems of one command handler. Exec form (`args`): the program itself. Shell form: every
 * simple command of the line; the first one's problems are errors, later ones' warnings (they may
 * sit behind a `command -v x ||` guard). An interpreter's script operand must exist too.
 */
export async function checkCommand(
  config: CommandHandlerConfig,
  context: CommandContext,
): Promise<CommandProblem[]> {
  if (config.args !== undefined) {
    const file = expand(config.command, context);
    return /[$`]/.test(file) ? [] : checkProgram(file, 'error', context);
  }
  if (config.shell !== undefined && /^(pwsh|powershell)(\.exe)?$/i.test(path.basename(config.shell)))
    return [];
  const parsed = await parseBashCommand(config.command);
  if (!parsed.ok) return [{ severity: 'warning', message: `cannot check: ${parsed.error}` }];
  const first = firstInSource(config.command, parsed.commands);
  const problems: CommandProblem[] = [];
  for (const command of parsed.commands) {
    const program = command.argv[0];
    if (program === undefined) continue;
    const severity = command === first ? 'error' : 'warning';
    const file = staticValue(program, context);
    if (file === undefined || BUILTINS.has(file)) continue;
    problems.push(...checkProgram(file, severity, context), ...checkSplitting(program, severity, context));
    if (INTERPRETERS.has(path.basename(file)))
      problems.push(...checkScriptOperand(command.argv.slice(1), severity, context));
  }
  return problems;
}

/** The command that starts first in the source text (the parser lists inner commands before outer ones). */
function firstInSource<T extends { readonly text: string }>(
  source: string,
  commands: readonly T[],
): T | undefined {
  let best: T | undefined;
  let bestAt = Infinity;
  for (const command of commands) {
    const at = source.indexOf(command.text);
    if (at >= 0 && at < bestAt) [best, bestAt] = [command, at];
  }
  return best;
}

function checkProgram(
  file: string | undefined,
  severity: CommandProblem['severity'],
  context: CommandContext,
): CommandProblem[] {
  if (file === undefined || file === '') return [];
  if (!file.includes('/')) {
    return lookupPath(file, context.path) ? [] : [{ severity, message: `${file}: not found in PATH` }];
  }
  const resolved = path.resolve(context.projectDir, file);
  const shown = resolved === file ? file : `${file} (${resolved})`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
  } catch {
    return [{ severity, message: `${shown}: no such file` }];
  }
  if (!stat.isFile()) return [{ severity, message: `${shown}: not a file` }];
  if (!isExecutable(resolved))
    return [{ severity, message: `${shown}: not executable (chmod +x ${resolved})` }];
  return path.isAbsolute(file) ? [] : [relativeWarning(file)];
}

/** The script an interpreter runs (`python3 "$CLAUDE_PROJECT_DIR"/hook.py`); inline code (`-c`, `-e`) and modules (`-m`) are not files. */
function checkScriptOperand(
  operands: readonly ShellWord[],
  severity: CommandProblem['severity'],
  context: CommandContext,
): CommandProblem[] {
  const operand = operands.find((word) => !word.value.startsWith('-'));
  const options = operand === undefined ? operands : operands.slice(0, operands.indexOf(operand));
  if (operand === undefined || options.some((word) => INLINE_CODE_OPTIONS.has(word.value))) return [];
  const file = staticValue(operand, context);
  if (file === undefined || !(file.includes('/') || SCRIPT_EXTENSION.test(file))) return [];
  const resolved = path.resolve(context.projectDir, file);
  if (!fs.existsSync(resolved))
    return [{ severity, message: `${file}${resolved === file ? '' : ` (${resolved})`}: no such file` }];
  return path.isAbsolute(file) ? [] : [relativeWarning(file)];
}

/** An unquoted `$CLAUDE_PROJECT_DIR` splits into several words when the project path has a space. */
function checkSplitting(
  word: ShellWord,
  severity: CommandProblem['severity'],
  context: CommandContext,
): CommandProblem[] {
  if (
    !/\$\{?CLAUDE_PROJECT_DIR/.test(word.source) ||
    /["']/.test(word.source) ||
    !/\s/.test(context.projectDir)
  )
    return [];
  return [
    {
      severity,
      message: `${word.source}: unquoted, so the project path splits at its space; write "$CLAUDE_PROJECT_DIR"${word.source.replace(/^\$\{?CLAUDE_PROJECT_DIR\}?/, '')}`,
    },
  ];
}

function relativeWarning(file: string): CommandProblem {
  return {
    severity: 'warning',
    message: `${file}: relative to the session's current directory, which follows the Bash tool's cd; "$CLAUDE_PROJECT_DIR"/${file.replace(/^\.\//, '')} always finds it`,
  };
}

/** The word's value with the statically known expansions done; undefined when something else would expand. */
function staticValue(word: ShellWord, context: CommandContext): string | undefined {
  const value = expand(word.value, context);
  if (/[$`*?[]/.test(value)) return undefined;
  return value;
}

function expand(text: string, context: CommandContext): string {
  let value = text.replace(
    /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g,
    () => context.projectDir,
  );
  for (const [name, replacement] of [
    ['CLAUDE_PLUGIN_ROOT', context.pluginRoot],
    ['CLAUDE_PLUGIN_DATA', context.pluginData],
  ] as const) {
    if (replacement === undefined) continue;
    value = value.replace(new RegExp(`\\$\\{${name}\\}|\\$${name}(?![A-Za-z0-9_])`, 'g'), () => replacement);
  }
  if (value === '~' || value.startsWith('~/')) value = path.join(context.homeDir, value.slice(1));
  return value;
}

function lookupPath(program: string, searchPath: string): boolean {
  return searchPath
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => {
      const candidate = path.join(dir, program);
      try {
        return fs.statSync(candidate).isFile() && isExecutable(candidate);
      } catch {
        return false;
      }
    });
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
