import fs from 'node:fs';
import path from 'node:path';
import { readLiteralCommandLine, type LiteralCommand } from './bash-literal-line.js';
import {
  READ_ONLY_ASSIGNMENTS,
  READ_ONLY_GIT,
  READ_ONLY_PROGRAMS,
  type ProgramFlags,
} from './read-only-programs.js';

/**
 * Whether a Bash command line may run without approval: it is read-only only when it can be
 * PROVEN so, never because nothing dangerous was spotted. That needs both:
 * (a) the line is literal (see `readLiteralCommandLine`): simple commands of literal words joined
 *     by `|`, `&&`, `||`, `;`, newlines — no expansion, glob, brace, subshell, compound command,
 *     here-document or control character, so Bash passes exactly the words read here;
 * (b) each command is an allowlisted program (`READ_ONLY_PROGRAMS`, `READ_ONLY_GIT`), possibly
 *     behind `timeout`/`nice`/`command`, whose every flag is on its list in full spelling, with
 *     only `LC_*`-style prefix assignments, output redirected only to `/dev/null`, input only from
 *     regular paths (not `/dev/tcp/…`).
 * `git` additionally runs only in the session's directory (no `-C`, `--git-dir`, no `cd` earlier
 * on the line) and not in a directory that is itself a bare repository: a repository's config can
 * name programs git runs (`core.fsmonitor`, `diff.external`). `cwd` is used for that check only.
 * Never throws.
 */
export function isReadOnlyCommandLine(command: string, cwd?: string): boolean {
  const line = readLiteralCommandLine(command);
  if (!line.ok || line.commands.length === 0) return false;
  let changedDirectory = false;
  for (const simple of line.commands) {
    if (!isReadOnlyLiteralCommand(simple, { gitAllowed: !changedDirectory, cwd })) return false;
    // `command cd x` moves the shell as `cd x` does.
    if (unwrap(simple.argv)?.[0] === 'cd') changedDirectory = true;
  }
  return true;
}

/**
 * Whether one simple command, given as its source text, would be read-only but for its output
 * redirections (the caller lists those as writes of their own). The rule is otherwise that of
 * `isReadOnlyCommandLine` for a line of exactly one command, `git` excluded. Used for the commands
 * of a line that is not read-only as a whole (acceptEdits allows read-only commands beside file edits).
 */
export function isReadOnlySimpleCommandText(text: string, cwd?: string): boolean {
  const line = readLiteralCommandLine(text);
  return (
    line.ok &&
    line.commands.length === 1 &&
    isReadOnlyLiteralCommand(line.commands[0] as LiteralCommand, {
      gitAllowed: false,
      cwd,
      outputsListedElsewhere: true,
    })
  );
}

/** The number of simple commands the literal reader finds in `command`, or undefined when it is not literal. */
export function literalCommandCount(command: string): number | undefined {
  const line = readLiteralCommandLine(command);
  return line.ok ? line.commands.length : undefined;
}

interface Context {
  readonly gitAllowed: boolean;
  readonly cwd: string | undefined;
  /** Output redirections to files are the caller's concern (listed as writes). */
  readonly outputsListedElsewhere?: boolean;
}

function isReadOnlyLiteralCommand(simple: LiteralCommand, context: Context): boolean {
  if (
    !simple.assignments.every(
      ([name, value]) => READ_ONLY_ASSIGNMENTS.has(name) && plainSettingValue(name, value),
    )
  )
    return false;
  for (const redirection of simple.redirections) {
    if (
      (redirection.kind === '>' || redirection.kind === '>>') &&
      redirection.target !== '/dev/null' &&
      context.outputsListedElsewhere !== true
    )
      return false;
    // Bash itself opens /dev/tcp/…, /dev/udp/… (network) and /dev/fd/N; other devices may block or have effects.
    if (redirection.kind === '<' && (redirection.target.startsWith('/dev/') || redirection.target === ''))
      return false;
  }
  const argv = unwrap(simple.argv);
  if (argv === undefined || argv.length === 0) return false;
  return isReadOnlyProgram(argv[0] as string, argv.slice(1), context);
}

/**
 * A locale or time zone value that names no file: a locale value with a `/` (`LC_ALL=/tmp/x`) is
 * a path glibc loads locale data from, and `TZ=:/path` or `TZ=../x` a zone file read from anywhere.
 */
function plainSettingValue(name: string, value: string): boolean {
  if (name === 'TZ')
    return /^[A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value) && !value.split('/').includes('..');
  return /^[A-Za-z0-9_.@,=-]*$/.test(value) && !value.includes('..');
}

// Wrappers that only run the rest of the line as a command (GNU: their flags come first).
const TIMEOUT: ProgramFlags = {
  short: 'v',
  shortValue: 'ks',
  long: '--preserve-status --foreground --verbose',
  longValue: '--kill-after --signal',
};
const NICE: ProgramFlags = { shortValue: 'n', longValue: '--adjustment' };
const COMMAND: ProgramFlags = { short: 'p' };

/** The command behind `timeout DURATION`, `nice [-n N]` and `command [-p]`, or undefined when a wrapper's flags are not on its list. */
function unwrap(argv: readonly string[]): readonly string[] | undefined {
  let rest = argv;
  for (;;) {
    const program = rest[0];
    const args = rest.slice(1);
    if (program === 'timeout') {
      const split = splitOptions(TIMEOUT, args);
      if (!split || split.rest.length < 2) return undefined;
      rest = split.rest.slice(1); // the duration
    } else if (program === 'nice') {
      const split = splitOptions(NICE, args);
      if (!split) return undefined;
      if (split.rest.length === 0) return ['true']; // `nice` alone prints the niceness
      rest = split.rest;
    } else if (program === 'command') {
      // `command -v NAME` / `-V` only print what NAME is.
      if (args[0] === '-v' || args[0] === '-V')
        return args.slice(1).every((arg) => !arg.startsWith('-')) ? ['true'] : undefined;
      const split = splitOptions(COMMAND, args);
      if (!split || split.rest.length === 0) return undefined;
      rest = split.rest;
    } else {
      return rest;
    }
  }
}

function isReadOnlyProgram(program: string, args: readonly string[], context: Context): boolean {
  if (program === 'git') return context.gitAllowed && isReadOnlyGit(args, context.cwd);
  if (!Object.hasOwn(READ_ONLY_PROGRAMS, program)) return false;
  const spec = READ_ONLY_PROGRAMS[program] as ProgramFlags;
  if (program === 'test' || program === '[') return testOperands(program, args);
  // `env`, `$ENV`: the environment may hold credentials; `import`/`include` read module and data files from anywhere.
  if (program === 'jq' && args.some((arg) => /env|import|include|modulemeta/i.test(arg))) return false;
  const operands = operandsOf(spec, args);
  return operands !== undefined && (spec.operands?.(operands) ?? true);
}

/**
 * `test …` / `[ … ]`: every word is an operand. Never `-v` (it evaluates an array subscript, which
 * can run a command substitution) or `-R`; integer comparisons in `test` do not evaluate (unlike `[[`).
 */
function testOperands(program: string, args: readonly string[]): boolean {
  if (program === '[' && args.at(-1) !== ']') return false;
  return !args.some((arg) => arg === '-v' || arg === '-R');
}

const GIT_GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--no-replace-objects',
]);

function isReadOnlyGit(args: readonly string[], cwd: string | undefined): boolean {
  let index = 0;
  // Global flags: never -c, -C, --git-dir, --work-tree, --exec-path, --config-env, -p/--paginate.
  while (index < args.length && GIT_GLOBAL_FLAGS.has(args[index] as string)) index += 1;
  const subcommand = args[index];
  if (subcommand === '--version') return index === args.length - 1;
  if (subcommand === undefined || !Object.hasOwn(READ_ONLY_GIT, subcommand)) return false;
  if (cwd !== undefined && inBareRepository(cwd)) return false;
  const rest = args.slice(index + 1);
  // `%G?`, `%GS` … in a format verify signatures, which starts gpg.
  if (rest.some((arg) => arg.includes('%G'))) return false;
  const operands = operandsOf(READ_ONLY_GIT[subcommand] as ProgramFlags, rest);
  if (operands === undefined) return false;
  switch (subcommand) {
    case 'branch':
    case 'tag':
      // Any operand may name a branch or tag to create: whether `-l` makes it a pattern depends on
      // where git's option parser stops (`--format -l x` creates `x`), so only the bare list is read-only.
      return operands.length === 0;
    case 'remote':
      return operands.length === 0 || (operands[0] === 'get-url' && operands.length === 2);
    case 'stash':
      return ['list', 'show'].includes(operands[0] ?? '') && operands.length <= 2;
    case 'reflog':
      return operands.length === 0 || (operands[0] === 'show' && operands.length <= 2);
    case 'version':
      return operands.length === 0;
    default:
      return true;
  }
}

/**
 * Whether git, started in `cwd`, would use a directory that is itself a repository (bare) before
 * finding a `.git`: such a directory's `config` is an ordinary file the model may have written.
 */
function inBareRepository(cwd: string): boolean {
  let directory = path.resolve(cwd);
  for (;;) {
    if (fs.existsSync(path.join(directory, '.git'))) return false;
    const looksBare = ['HEAD', 'objects', 'refs'].every((name) => fs.existsSync(path.join(directory, name)));
    if (looksBare) return true;
    const parent = path.dirname(directory);
    if (parent === directory) return false;
    directory = parent;
  }
}

/**
 * The operands of `args` when every flag is on `spec`'s list (see `ProgramFlags`), else undefined.
 * Flags are read in every position before `--` (GNU permutes), or only before the first operand
 * with `optionsFirst`.
 */
export function operandsOf(spec: ProgramFlags, args: readonly string[]): string[] | undefined {
  return splitArguments(spec, args)?.operands.map((index) => args[index] as string);
}

/** One flag of a split argument list: its name as written before any `=` (`-f`, `--file`) and where its value is. */
export interface SplitFlag {
  readonly name: string;
  /** The value: the index of the next word that holds it, or the text attached to the flag (`-fX`, `--file=X`). */
  readonly value?: { readonly index: number } | { readonly attached: string };
}

/**
 * `args` split into operands (their indices) and flags with their values, when every flag is on
 * `spec`'s list (see `operandsOf`); undefined otherwise. A short cluster (`-rn`) is one flag per letter.
 */
export function splitArguments(
  spec: ProgramFlags,
  args: readonly string[],
): { operands: number[]; flags: SplitFlag[] } | undefined {
  const operands: number[] = [];
  const flags: SplitFlag[] = [];
  let options = true;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (
      !options ||
      arg === '-' ||
      !arg.startsWith('-') ||
      (spec.optionsFirst === true && operands.length > 0)
    ) {
      operands.push(index);
      continue;
    }
    if (arg === '--') {
      options = false;
      continue;
    }
    const taken = flagWords(spec, arg);
    if (taken === undefined) return undefined;
    if (taken === 2 && index + 1 >= args.length) return undefined;
    flags.push(...splitFlag(spec, arg, taken === 2 ? index + 1 : undefined));
    index += taken - 1;
  }
  return { operands, flags };
}

function splitFlag(spec: ProgramFlags, arg: string, next: number | undefined): SplitFlag[] {
  const withNext = next === undefined ? {} : { value: { index: next } };
  if (spec.singleDash === true) return [{ name: arg, ...withNext }];
  if (arg.startsWith('--')) {
    const equals = arg.indexOf('=');
    return equals < 0
      ? [{ name: arg, ...withNext }]
      : [{ name: arg.slice(0, equals), value: { attached: arg.slice(equals + 1) } }];
  }
  if (spec.numeric === true && /^-\d+$/.test(arg)) return [{ name: arg }];
  const flags: SplitFlag[] = [];
  for (let index = 1; index < arg.length; index += 1) {
    const letter = arg[index] as string;
    if (spec.shortValue?.includes(letter) === true && spec.short?.includes(letter) !== true) {
      flags.push(
        index + 1 < arg.length
          ? { name: `-${letter}`, value: { attached: arg.slice(index + 1) } }
          : { name: `-${letter}`, ...withNext },
      );
      return flags;
    }
    flags.push({ name: `-${letter}` });
  }
  return flags;
}

/** The leading flags of a wrapper's `args` (flags stop at the first operand) and the words after them. */
function splitOptions(spec: ProgramFlags, args: readonly string[]): { rest: readonly string[] } | undefined {
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith('-') && args[index] !== '-') {
    if (args[index] === '--') return { rest: args.slice(index + 1) };
    const taken = flagWords(spec, args[index] as string);
    if (taken === undefined || index + taken > args.length) return undefined;
    index += taken;
  }
  return { rest: args.slice(index) };
}

/** How many words the flag `arg` uses (1, or 2 when its value is the next word), or undefined when it is not on the list. */
function flagWords(spec: ProgramFlags, arg: string): 1 | 2 | undefined {
  const listed = (list: string | undefined, name: string) =>
    list !== undefined && list.split(' ').includes(name);
  if (spec.singleDash === true) {
    if (listed(spec.long, arg)) return 1;
    return listed(spec.longValue, arg) ? 2 : undefined;
  }
  if (arg.startsWith('--')) {
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg : arg.slice(0, equals);
    if (listed(spec.long, name)) return equals < 0 ? 1 : undefined;
    if (listed(spec.longValue, name)) return equals < 0 ? 2 : 1;
    return listed(spec.longOptional, name) ? 1 : undefined;
  }
  if (spec.numeric === true && /^-\d+$/.test(arg)) return 1;
  for (let index = 1; index < arg.length; index += 1) {
    const letter = arg[index] as string;
    if (spec.short?.includes(letter) === true) continue;
    if (spec.shortValue?.includes(letter) !== true) return undefined;
    return index + 1 < arg.length ? 1 : 2; // the value is the rest of the word, or the next word
  }
  return 1;
}
