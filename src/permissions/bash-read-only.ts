import os from 'node:os';
import path from 'node:path';
import type { Workspace } from '../tools/workspace.js';
import { parseBashCommand, type ShellWord, type SimpleCommand } from './bash-command.js';
import { programName, programsOf } from './bash-programs.js';
import { protectedRemovals as removalsOf } from './bash-removals.js';
import { writesOfRun } from './bash-writes.js';

/** Where a path a command writes lies: in the workspace, outside it, or not knowable before it runs. */
export type PathPlace = 'inside' | 'outside' | 'unknown';

/** What needs approval in a command, first found first. */
export interface BashWrite {
  /**
   * `redirect`: an output redirection; `filesystem`: a path written by rm, rmdir, unlink, mkdir,
   * touch, truncate, tee, cp, mv, ln, install, `sed -i`, `dd of=` or `find -fprint…` (also behind
   * wrappers, `xargs` and `find -exec`); `program`: anything else not known to be read-only, or more
   * than a plain file edit. A command has one `filesystem` entry per written path.
   */
  readonly kind: 'redirect' | 'filesystem' | 'program';
  /** The absolute path (redirect, filesystem); absent when the shell decides it at run time (`place: 'unknown'`). */
  readonly path?: string;
  readonly place?: PathPlace;
  /** True when anything below `path` may be written too (`cp -r`, `mv`, `rm -r`). */
  readonly tree?: boolean;
  /** The model-facing explanation, e.g. `Output redirection to '/ws/out.txt' needs approval. …`. */
  readonly message: string;
}

/**
 * The permission-relevant facts about one Bash command.
 * - `readOnly`: every simple command is a known read-only program (see `READ_ONLY_PROGRAMS`) and
 *   nothing is written but `/dev/null`: it runs without approval in default and plan modes.
 * - `reason`: why it is not read-only (the first `writes` message), Claude Code's wording where the
 *   reference's is known; undefined when read-only.
 * - `editsInsideWorkspace`: everything that is not read-only is a file edit (output redirection or
 *   a `filesystem` write, see `BashWrite`) whose every option is known, on known paths inside the
 *   workspace: what acceptEdits allows.
 * - `protectedRemovals`: what rm/rmdir/unlink/mv/`find -delete` (also behind wrappers) would remove
 *   and no hook or mode may approve: `/`, the home directory, a workspace root, a directory above
 *   one, or an operand that may be one of them (see `protectedRemovals` in bash-removals.ts).
 * - `parsed`: false when the command is not valid Bash (it is then never read-only).
 */
export interface BashClassification {
  readonly parsed: boolean;
  readonly readOnly: boolean;
  readonly reason?: string;
  readonly writes: readonly BashWrite[];
  readonly editsInsideWorkspace: boolean;
  readonly protectedRemovals: readonly string[];
}

/** The Claude Code text for a call that needs approval and has no more specific reason. */
export const GENERIC_BASH_REASON = "Claude requested permissions to use Bash, but you haven't granted it yet.";

/** Programs that only read, whatever their arguments (others are checked per argument below). */
export const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  ':', 'arch', 'b2sum', 'base32', 'base64', 'basename', 'cat', 'cd', 'cksum', 'cmp', 'column', 'comm', 'cut', 'df', 'diff', 'dirname',
  'du', 'echo', 'egrep', 'expand', 'false', 'fgrep', 'fold', 'free', 'grep', 'groups', 'head', 'hexdump', 'id', 'jq', 'locale',
  'ls', 'md5sum', 'nl', 'nproc', 'od', 'paste', 'printf', 'ps', 'pwd', 'readlink', 'realpath', 'rev', 'seq', 'sha1sum', 'sha224sum',
  'sha256sum', 'sha384sum', 'sha512sum', 'sleep', 'stat', 'strings', 'tac', 'tail', 'test', '[', 'tr', 'true', 'tty', 'type', 'uname',
  'unexpand', 'uptime', 'wc', 'whereis', 'which', 'whoami',
]);

const DISCARD_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);
// Variables that change which program runs or what it executes: an assignment to one is never read-only.
const RISKY_VARIABLE = /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|CDPATH|GIT_\w+|\w*PAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|NODE_OPTIONS|PYTHON\w*|PERL5\w*|RUBY\w*)(\[|\+?=)/;

/**
 * Classifies a Bash command for the permission policy (see `BashClassification`). Relative paths
 * resolve against `cwd`; after a `cd`/`pushd`/`popd` in the same command the paths it writes are
 * `unknown`. Never throws.
 */
export async function classifyBashCommand(command: string, context: { cwd: string; workspace: Workspace; homeDir?: string }): Promise<BashClassification> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) {
    return { parsed: false, readOnly: false, reason: GENERIC_BASH_REASON, writes: [{ kind: 'program', message: GENERIC_BASH_REASON }], editsInsideWorkspace: false, protectedRemovals: [] };
  }
  const homeDir = context.homeDir ?? os.homedir();
  const changesDirectory = parsed.commands.some((simple) => ['cd', 'pushd', 'popd'].includes(simple.words[0] ?? ''));
  const locate = (word: ShellWord): { path?: string; place: PathPlace } => {
    const resolved = resolveWord(word, context.cwd, homeDir);
    if (resolved === undefined || (changesDirectory && !path.isAbsolute(word.value))) return { place: 'unknown' };
    return { path: resolved, place: context.workspace.contains(resolved) ? 'inside' : 'outside' };
  };
  const where = (place: PathPlace): string => describePlace(place, context.workspace);

  const writes: BashWrite[] = [];
  const protectedRemovals: string[] = [];
  for (const redirection of parsed.redirections) {
    if (!redirection.dynamic && DISCARD_TARGETS.has(redirection.target)) continue;
    const target = locate({ value: redirection.target, source: redirection.target, dynamic: redirection.dynamic });
    writes.push({ kind: 'redirect', ...target, message: `Output redirection to '${target.path ?? redirection.target}' needs approval. ${where(target.place)}` });
  }
  const removalContext = { cwd: context.cwd, homeDir, workspace: context.workspace, changesDirectory };
  for (const simple of parsed.commands) {
    const programs = programsOf(simple.argv);
    // Removals are judged behind every wrapper, whatever else the command is.
    for (const run of programs.runs) protectedRemovals.push(...removalsOf(run, removalContext));
    const argv = unwrap(simple.argv);
    if (isReadOnly(simple, argv)) continue;
    const { files, plain } = fileWrites(simple, programs.runs, programs.unknown === undefined);
    const located = files.map((file) => {
      const at = file.word === undefined ? { place: 'unknown' as const } : locate(file.word);
      const full = at.path !== undefined && file.child !== undefined ? path.join(at.path, file.child) : at.path;
      const place = full !== undefined && at.place !== 'unknown' ? (context.workspace.contains(full) ? 'inside' : 'outside') : at.place;
      const shown = full ?? file.word?.source;
      const message = shown !== undefined ? `${file.program} in '${shown}' needs approval. ${where(place)}` : `${file.program} needs approval. ${where(place)}`;
      return { kind: 'filesystem' as const, ...(full !== undefined ? { path: full } : {}), place, ...(file.tree ? { tree: true } : {}), message };
    });
    // The first path shown is one that leaves the workspace, if any.
    writes.push(...located.filter((write) => write.place !== 'inside'), ...located.filter((write) => write.place === 'inside'));
    if (!plain) writes.push({ kind: 'program', message: GENERIC_BASH_REASON });
  }
  const editsInsideWorkspace = writes.every((write) => write.kind !== 'program' && write.place === 'inside');
  return { parsed: true, readOnly: writes.length === 0, ...(writes[0] ? { reason: writes[0].message } : {}), writes, editsInsideWorkspace, protectedRemovals };
}

function describePlace(place: PathPlace, workspace: Workspace): string {
  const roots = workspace.roots.map((root) => `'${root}'`).join(', ');
  if (place === 'inside') {
    // Claude Code's own words (trace permission-request-print-mode), kept so transcripts compare.
    return `The path is inside the working directories for this session (${roots}), and Claude Code asks before a shell command creates, changes or removes files there.`;
  }
  if (place === 'outside') return `The path is outside the working directories for this session (${roots}).`;
  return 'hookloop cannot tell before the command runs which path this is.';
}

/**
 * The paths the runs of one simple command write, and whether the command is nothing but plain
 * file edits (every run a known writer or a transparent wrapper, no assignments, no unknown program).
 */
function fileWrites(simple: SimpleCommand, runs: ReturnType<typeof programsOf>['runs'], known: boolean): { files: { program: string; word: ShellWord | undefined; child?: string; tree?: boolean }[]; plain: boolean } {
  const files: { program: string; word: ShellWord | undefined; child?: string; tree?: boolean }[] = [];
  let plain = known && simple.unknown === undefined && simple.assignments.length === 0 && runs.length > 0;
  runs.forEach((run, index) => {
    const found = writesOfRun(run);
    const program = run.argv[0] ? programName(run.argv[0]) : '';
    if (found === undefined) {
      if (!(run.transparent && index < runs.length - 1)) plain = false;
      return;
    }
    if (found.notPlain !== undefined) plain = false;
    for (const written of found.written) files.push({ program, ...written });
  });
  return { files, plain };
}

/** The absolute path a word names, or undefined when the shell decides it at run time. */
function resolveWord(word: ShellWord, cwd: string, homeDir: string): string | undefined {
  if (/^~(\/[^$`*?[{]*)?$/.test(word.source)) return path.join(homeDir, word.source.slice(1));
  if (word.dynamic) return undefined;
  return path.resolve(cwd, word.value);
}

/** The words after leading `time`, `nice`, `nohup`, `timeout` wrappers (which only run the rest). */
function unwrap(argv: readonly ShellWord[]): readonly ShellWord[] {
  let rest = argv;
  for (;;) {
    const program = rest[0]?.value;
    if (program !== 'time' && program !== 'nice' && program !== 'nohup' && program !== 'timeout') return rest;
    let index = 1;
    while (index < rest.length && rest[index]?.value.startsWith('-')) index += rest[index]?.value === '-n' || rest[index]?.value === '-s' || rest[index]?.value === '-k' ? 2 : 1;
    if (program === 'timeout') index += 1;
    if (index >= rest.length) return rest;
    rest = rest.slice(index);
  }
}

function isReadOnly(simple: SimpleCommand, argv: readonly ShellWord[]): boolean {
  if (simple.assignments.some((assignment) => RISKY_VARIABLE.test(assignment))) return false;
  const first = argv[0];
  if (first === undefined) return true; // only assignments or redirections: the redirections are checked on their own
  if (first.dynamic || first.value.includes('/')) return false;
  const args = argv.slice(1).map((word) => word.value);
  const positional = args.filter((arg) => !arg.startsWith('-'));
  switch (first.value) {
    case 'find':
      return !args.some((arg) => ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'].includes(arg));
    case 'sort':
      return !args.some((arg) => arg === '-o' || arg.startsWith('--output') || /^-[a-zA-Z]*o/.test(arg));
    case 'uniq':
    case 'xxd':
      return positional.length <= 1 && !args.includes('-r');
    case 'date':
      return !args.some((arg) => arg === '-s' || arg.startsWith('--set')) && positional.every((arg) => arg.startsWith('+'));
    case 'hostname':
    case 'env':
    case 'printenv':
      return first.value === 'printenv' || positional.length === 0;
    case 'rg':
      return !args.some((arg) => arg === '--pre' || arg.startsWith('--pre='));
    case 'tree':
      return !args.includes('-o');
    case 'file':
      return !args.includes('-C'); // `file -C` compiles a magic file into the current directory
    case 'command':
      return args[0] === '-v' || args[0] === '-V';
    case 'git':
      return isReadOnlyGit(args);
    default:
      return READ_ONLY_PROGRAMS.has(first.value);
  }
}

const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'describe', 'blame', 'ls-files', 'ls-tree', 'shortlog', 'cat-file', 'grep', 'rev-list', 'merge-base', 'name-rev', 'count-objects', 'version', 'whatchanged']);

function isReadOnlyGit(args: readonly string[]): boolean {
  let index = 0;
  // Global options; `-c` is refused: a config value can name a program (pager, alias, diff driver).
  while (index < args.length && (args[index] as string).startsWith('-')) {
    const option = args[index] as string;
    if (option === '-c' || option.startsWith('--config-env') || option.startsWith('--exec-path')) return false;
    index += option === '-C' || option === '--git-dir' || option === '--work-tree' || option === '--namespace' ? 2 : 1;
  }
  const subcommand = args[index];
  const rest = args.slice(index + 1);
  // Options that write a file or run a program: `--output=x`, external diff drivers, `git grep -O` (opens a pager).
  if (rest.some((arg) => arg.startsWith('--output') || arg === '--ext-diff' || arg === '-O' || arg.startsWith('--open-files-in-pager'))) return false;
  const positional = rest.filter((arg) => !arg.startsWith('-'));
  const listing = rest.includes('--list') || rest.includes('-l');
  switch (subcommand) {
    case undefined:
      return false;
    case 'branch':
      return !rest.some((arg) => /^(-[dDmMcCfu]|--(delete|move|copy|force|set-upstream-to|unset-upstream|edit-description|track))/.test(arg)) && (positional.length === 0 || listing);
    case 'tag':
      return !rest.some((arg) => /^(-[adsfmFu]|--(delete|annotate|sign|force|message|file))/.test(arg)) && (positional.length === 0 || listing);
    case 'remote':
      return positional.length === 0 || ['show', 'get-url'].includes(positional[0] as string);
    case 'stash':
      return ['list', 'show'].includes(positional[0] ?? '');
    case 'config':
      return rest.some((arg) => ['--get', '--get-all', '--get-regexp', '--list', '-l'].includes(arg));
    case 'reflog':
      return positional.length === 0 || positional[0] === 'show';
    default:
      return GIT_READ_ONLY.has(subcommand);
  }
}
