import os from 'node:os';
import path from 'node:path';
import type { Workspace } from '../tools/workspace.js';
import { parseBashCommand, type ShellWord } from './bash-command.js';
import { isReadOnlyCommandLine, isReadOnlySimpleCommandText, literalCommandCount } from './read-only-command.js';

/** Where a path a command writes lies: in the workspace, outside it, or not knowable before it runs. */
export type PathPlace = 'inside' | 'outside' | 'unknown';

/** What needs approval in a command, first found first. */
export interface BashWrite {
  /** `redirect`: an output redirection; `filesystem`: mkdir, touch, rm, rmdir, mv or cp; `program`: anything else not known to be read-only. */
  readonly kind: 'redirect' | 'filesystem' | 'program';
  /** The absolute path (redirect, filesystem) when known, else the word as written. */
  readonly path?: string;
  readonly place?: PathPlace;
  /** The model-facing explanation, e.g. `Output redirection to '/ws/out.txt' needs approval. …`. */
  readonly message: string;
}

/**
 * The permission-relevant facts about one Bash command.
 * - `readOnly`: the command is proven read-only by `isReadOnlyCommandLine` (literal words, allowlisted
 *   programs and flags, output only to `/dev/null`): it runs without approval in default and plan modes.
 * - `reason`: why it is not read-only (the first `writes` message), Claude Code's wording where the
 *   reference's is known; undefined when read-only.
 * - `editsInsideWorkspace`: everything that is not read-only is a file edit (output redirection or
 *   mkdir/touch/rm/rmdir/mv/cp) on known paths inside the workspace: what acceptEdits allows.
 * - `protectedRemovals`: paths that `rm`/`rmdir` would remove and no hook may approve: `/`, the home
 *   directory, a workspace root or a directory above one.
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

const FILESYSTEM_PROGRAMS = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp']);
const DISCARD_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);
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
  const locate = (word: ShellWord): { path: string; place: PathPlace } => {
    const resolved = resolveWord(word, context.cwd, homeDir);
    if (resolved === undefined) return { path: word.value, place: 'unknown' };
    if (changesDirectory && !path.isAbsolute(word.value)) return { path: resolved, place: 'unknown' };
    return { path: resolved, place: context.workspace.contains(resolved) ? 'inside' : 'outside' };
  };
  const where = (place: PathPlace): string => describePlace(place, context.workspace);

  const writes: BashWrite[] = [];
  const protectedRemovals: string[] = [];
  // Read-only is decided by read-only-command.ts alone (fail closed: proven, or it asks).
  const lineReadOnly = isReadOnlyCommandLine(command, context.cwd);
  for (const redirection of parsed.redirections) {
    if (!redirection.dynamic && DISCARD_TARGETS.has(redirection.target)) continue;
    const target = locate({ value: redirection.target, source: redirection.target, dynamic: redirection.dynamic });
    writes.push({ kind: 'redirect', ...target, message: `Output redirection to '${target.path}' needs approval. ${where(target.place)}` });
  }
  for (const simple of parsed.commands) {
    const argv = unwrap(simple.argv);
    const program = argv[0]?.dynamic ? undefined : argv[0]?.value;
    if (lineReadOnly || isReadOnlySimpleCommandText(simple.text, context.cwd)) continue;
    if (program !== undefined && FILESYSTEM_PROGRAMS.has(program) && simple.assignments.length === 0) {
      const targets = pathArguments(program, argv.slice(1)).map(locate);
      const shown = targets.find((target) => target.place !== 'inside') ?? targets[0];
      const place = shown?.place ?? 'inside';
      const message = shown ? `${program} in '${shown.path}' needs approval. ${where(place)}` : `${program} needs approval. ${where(place)}`;
      writes.push({ kind: 'filesystem', ...(shown ? { path: shown.path } : {}), place, message });
      if (program === 'rm' || program === 'rmdir') protectedRemovals.push(...removalsOfProtected(argv.slice(1), context.cwd, homeDir, context.workspace));
      continue;
    }
    writes.push({ kind: 'program', message: GENERIC_BASH_REASON });
  }
  // What the literal reader cannot read (or reads differently from tree-sitter-bash) may hide a
  // command neither sees, e.g. `(( x ))`: it is never read-only and never a mere file edit.
  if (!lineReadOnly && (writes.length === 0 || literalCommandCount(command) !== parsed.commands.length)) writes.push({ kind: 'program', message: GENERIC_BASH_REASON });
  const editsInsideWorkspace = writes.every((write) => write.kind !== 'program' && write.place === 'inside');
  return { parsed: true, readOnly: lineReadOnly && writes.length === 0, ...(writes[0] ? { reason: writes[0].message } : {}), writes, editsInsideWorkspace, protectedRemovals };
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

/** The path operands of mkdir/touch/rm/rmdir/mv/cp (option values that are not paths skipped). */
function pathArguments(program: string, args: readonly ShellWord[]): ShellWord[] {
  const valueOptions: Record<string, readonly string[]> = { mkdir: ['-m', '--mode'], touch: ['-d', '-t', '-r', '--date', '--reference'], mv: ['-S', '--suffix'], cp: ['-S', '--suffix'] };
  const paths: ShellWord[] = [];
  let options = true;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (options && word.value === '--') options = false;
    else if (options && (word.value === '-t' || word.value === '--target-directory')) {
      const target = args[index + 1];
      if (target) paths.push(target);
      index += 1;
    } else if (options && word.value.startsWith('--target-directory=')) {
      paths.push({ ...word, value: word.value.slice('--target-directory='.length), source: word.source.slice('--target-directory='.length) });
    } else if (options && word.value.startsWith('-') && word.value !== '-') {
      if (valueOptions[program]?.includes(word.value)) index += 1;
    } else paths.push(word);
  }
  return paths;
}

/** The operands of rm/rmdir that are `/`, the home directory, a workspace root or above one (globs: their fixed prefix). */
function removalsOfProtected(args: readonly ShellWord[], cwd: string, homeDir: string, workspace: Workspace): string[] {
  const protectedPaths = new Set(['/', path.resolve(homeDir), ...workspace.roots, workspace.projectDir]);
  const found: string[] = [];
  for (const word of args) {
    if (word.value.startsWith('-') && word.value !== '-') continue;
    let target: string | undefined;
    if (/^(\$HOME|\$\{HOME\})(\/\*?)?\/?$/.test(word.value)) target = homeDir;
    else if (/^~(\/[^$`]*)?$/.test(word.source)) target = path.join(homeDir, word.source.slice(1));
    else if (!word.value.includes('$') && !word.value.includes('`')) target = path.resolve(cwd, word.value);
    if (target === undefined) continue;
    // `dir/*` removes what `dir` holds: judge it by `dir`.
    const fixed = target.split('/').findIndex((part) => /[*?[]/.test(part));
    const base = fixed < 0 ? target : target.split('/').slice(0, fixed).join('/') || '/';
    const hit = [...protectedPaths].some((protectedPath) => base === protectedPath || protectedPath.startsWith(base.endsWith('/') ? base : `${base}/`));
    if (hit) found.push(base);
  }
  return found;
}
