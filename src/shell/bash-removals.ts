import path from 'node:path';
import type { ShellWord } from './bash-command.js';
import { readOptions } from './bash-options.js';
import { programName, type ProgramRun } from './bash-programs.js';
import { WRITER_OPTIONS } from './bash-writer-specs.js';
import type { PathResolver } from './path-resolver.js';

/** Where removals are judged from. `changesDirectory`: a `cd` earlier in the command makes relative operands unknown. */
export interface RemovalContext {
  readonly cwd: string;
  readonly homeDir: string;
  readonly workspace: PathResolver;
  readonly changesDirectory: boolean;
}

/**
 * The operands of a run that removes (`rm`, `rmdir`, `unlink`, `find -delete`, `find -exec rm {}`,
 * the sources of `mv`, and any of them behind wrappers or `xargs`) that are, or may be, the
 * filesystem root, the home directory, a workspace root or a directory above one. Compared by real
 * path where the path exists; `~`, `~/`, `$HOME`, `${HOME}`, `"$HOME"/`, `$PWD`, `.`, `..`, trailing
 * slashes and globs (`~/*` is judged by `~`) are normalised. An operand known only when the
 * command runs counts when it could be such a directory: an unquoted expansion (it may split into
 * several words), a last path part that is an expansion, a glob, `.`/`..`, or the name of a
 * protected directory or one above it (`"$d/proj"` may be the workspace `…/proj`). `"$tmp/build"`
 * does not. Returns the operands as resolved paths, or as written when unknown.
 */
export function protectedRemovals(run: ProgramRun, context: RemovalContext): string[] {
  const [program, ...args] = run.argv;
  if (!program || program.dynamic) return [];
  const name = programName(program);
  if (!['rm', 'rmdir', 'unlink', 'mv'].includes(name)) return [];
  if (run.moreArguments) return [`${name} with arguments read from standard input`];
  const read = readOptions(args, WRITER_OPTIONS[name] ?? {});
  let operands =
    read.unknown === undefined
      ? read.operands
      : args.filter((word) => word.dynamic || !word.value.startsWith('-'));
  if (name === 'mv')
    operands =
      read.unknown === undefined &&
      !read.options.some((option) => option.name === '-t' || option.name === '--target-directory')
        ? operands.slice(0, -1)
        : operands;
  const protectedPaths = protectedSet(context);
  const found: string[] = [];
  for (const word of operands.flatMap((operand) => withPlaceholders(operand, run))) {
    const judged = judge(word, context, protectedPaths);
    if (judged !== undefined) found.push(judged);
  }
  return found;
}

/** `{}` of `find -exec` stands for the starting points (and all below them). */
function withPlaceholders(word: ShellWord, run: ProgramRun): ShellWord[] {
  if (!run.placeholderPaths || !word.value.includes('{}')) return [word];
  return word.value === '{}' ? [...run.placeholderPaths] : [{ ...word, dynamic: true }];
}

function protectedSet(context: RemovalContext): Set<string> {
  const roots = ['/', context.homeDir, context.workspace.projectDir, ...context.workspace.roots];
  return new Set(
    roots.flatMap((root) => [path.resolve(root), context.workspace.realPath(path.resolve(root))]),
  );
}

/** The operand's path when it is or may be protected, else undefined. */
function judge(word: ShellWord, context: RemovalContext, protectedPaths: Set<string>): string | undefined {
  const known = knownPath(word, context);
  if (known === undefined) return mayBeProtected(word, protectedPaths) ? word.source : undefined;
  // `dir/*` removes what `dir` holds: judged by `dir`.
  const parts = known.split('/');
  const firstGlob = parts.findIndex((part) => /[*?[]/.test(part));
  const base = firstGlob < 0 ? known : parts.slice(0, firstGlob).join('/') || '/';
  const candidates = new Set([base, context.workspace.realPath(base)]);
  for (const candidate of candidates) {
    for (const protectedPath of protectedPaths) {
      if (
        candidate === protectedPath ||
        protectedPath.startsWith(candidate.endsWith('/') ? candidate : `${candidate}/`)
      )
        return base;
    }
  }
  return undefined;
}

/**
 * The absolute path a removal operand names, globs kept, or undefined when the shell decides it:
 * literal words, and `~`, `$HOME`, `${HOME}`, `$PWD`, `${PWD}` at the start (quoted or not).
 */
function knownPath(word: ShellWord, context: RemovalContext): string | undefined {
  const relativeOk = (text: string): boolean => path.isAbsolute(text) || !context.changesDirectory;
  if (!word.dynamic) return relativeOk(word.value) ? path.resolve(context.cwd, word.value) : undefined;
  if (word.source.includes("'") || word.source.includes('\\')) return undefined;
  const unquoted = word.source.replace(/"/g, '');
  const expanded = unquoted
    .replace(/^~(?=\/|$)/, context.homeDir)
    .replace(/^\$(?:HOME|\{HOME\})(?=\/|$)/, context.homeDir)
    .replace(/^\$(?:PWD|\{PWD\})(?=\/|$)/, context.changesDirectory ? '$PWD' : context.cwd);
  if (/[$`{}]/.test(expanded) || expanded.startsWith('~')) return undefined; // `~user` is someone's home
  return relativeOk(expanded) ? path.resolve(context.cwd, expanded) : undefined;
}

/** A dynamic operand that might be protected (see `protectedRemovals`). */
function mayBeProtected(word: ShellWord, protectedPaths: Set<string>): boolean {
  if (hasUnquotedExpansion(word.source) || word.source.startsWith('~')) return true;
  const trimmed = word.source.replace(/"/g, '').replace(/(\/\.?)+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  if (last === '' || last === '.' || last === '..' || /[$`*?[{}\\']/.test(last)) return true;
  const names = new Set<string>();
  for (const protectedPath of protectedPaths)
    for (let dir = protectedPath; dir !== path.dirname(dir); dir = path.dirname(dir))
      names.add(path.basename(dir));
  return names.has(last);
}

/** Whether `$` or a backquote appears outside double quotes (the result may split into several words or glob). */
function hasUnquotedExpansion(source: string): boolean {
  let quoted = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') index += 1;
    else if (char === '"') quoted = !quoted;
    else if (char === "'" && !quoted) {
      const end = source.indexOf("'", index + 1);
      if (end < 0) return true;
      index = end;
    } else if ((char === '$' || char === '`') && !quoted) return true;
  }
  return false;
}
