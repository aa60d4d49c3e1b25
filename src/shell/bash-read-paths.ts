import fs from 'node:fs';
import path from 'node:path';
import type { ParsedBashCommand, ShellWord } from './bash-command.js';
import type { PathResolver } from './path-resolver.js';
import { directoryChange, programName, programsOf } from './bash-programs.js';
import { readsOfRun, type ReadWord } from './bash-reads.js';

/** One file a Bash command reads, resolved (see `readsOfLine`). */
export interface BashRead {
  /** The reading program (`cat`, `grep`, `cd`; `<` for an input redirection). */
  readonly program: string;
  /**
   * The absolute path, joined as the kernel will read it (`link/../x` not simplified: the caller
   * compares both `path.resolve` of it and its real path); undefined when only the running shell knows it.
   */
  readonly path?: string;
  /** Everything below `path` is read too (`grep -r`, `find`, `rg`, `du`, `git` pathspecs). */
  readonly tree: boolean;
  /** The walk below `path` follows symbolic links. */
  readonly follows: boolean;
  /** The walk skips names that start with `.`. */
  readonly skipsHidden: boolean;
  /** Only possibly a file (see `ReadWord.guessed`): Read rules apply, the working-directory check does not. */
  readonly guessed?: boolean;
}

type ParsedOk = Extract<ParsedBashCommand, { ok: true }>;

/**
 * Every file the command line reads: what each program run of each simple command reads (see
 * `readsOfRun`: operands, `-f FILE` values, what find starts from, git pathspecs, cp/ln sources),
 * every `<` redirection, and every `cd` target. A relative path is resolved against **each**
 * directory the shell may be in when it runs: the cwd and every `cd` target before it on the line
 * (a `cd` that fails, or one in a subshell or a pipeline, leaves the shell where it was), so a read
 * is judged in every place it could happen — except that in a plain `&&` chain (`cd src && cat
 * ../a`, given by `joins`: the operator after each command, when the line is literal) what follows
 * a `cd` runs only where it went. A `cd` whose target only the shell knows (`cd "$d"`,
 * `cd -`, `pushd`, a relative target when `CDPATH` is set) makes later relative paths unknown. `~`
 * and `~/x` are the home directory. Pure but for reading `CDPATH` and looking for `.git` (for
 * `REV:path`); never throws.
 */
export function readsOfLine(
  parsed: ParsedOk,
  context: {
    cwd: string;
    homeDir: string;
    workspace: Pick<PathResolver, 'realPath'>;
    joins?: readonly (string | undefined)[];
  },
): BashRead[] {
  const reads: BashRead[] = [];
  const directories = new Set([path.resolve(context.cwd)]);
  let lost = false;
  const locate = (word: ShellWord | undefined, program: string, shape: Omit<ReadWord, 'word'>): void => {
    if (word !== undefined && !word.dynamic && word.value === '-') return; // standard input
    const absolute = word === undefined ? undefined : literalPath(word, context.homeDir);
    if (absolute === undefined || (!path.isAbsolute(absolute) && lost)) {
      reads.push({
        program,
        tree: shape.tree,
        follows: shape.follows,
        skipsHidden: shape.skipsHidden,
        ...(shape.guessed ? { guessed: true } : {}),
      });
      return;
    }
    for (const directory of directories) {
      const base = shape.fromRepositoryTop ? repositoryTop(directory) : directory;
      reads.push({
        program,
        path: joinAsKernel(base, absolute),
        tree: shape.tree,
        follows: shape.follows,
        skipsHidden: shape.skipsHidden,
        ...(shape.guessed ? { guessed: true } : {}),
      });
    }
  };
  for (const input of parsed.inputs) locate(input, '<', { tree: false, follows: false, skipsHidden: false });
  parsed.commands.forEach((simple, index) => {
    const program = simple.argv[0];
    const name = program && !program.dynamic ? programName(program) : '';
    // Behind a wrapper too (`command cd x`): judged from the cd's own words.
    const change = directoryChange(simple.argv);
    if (change !== undefined) {
      const target = cdTarget(change.argv.slice(1), context.homeDir);
      if (change.name !== 'cd' || target === undefined) {
        lost = true;
        if (target === undefined)
          reads.push({ program: change.name, tree: false, follows: false, skipsHidden: false });
        return;
      }
      locate(target, 'cd', { tree: false, follows: false, skipsHidden: false });
      const absolute = literalPath(target, context.homeDir) as string;
      if (
        !path.isAbsolute(absolute) &&
        (lost || ((process.env['CDPATH'] ?? '') !== '' && !/^\.\.?(\/|$)/.test(absolute)))
      )
        lost = true;
      else {
        // bash's `cd` goes to the logical path (`..` removed as text) and falls back to the physical one; the process then stands at its real path.
        const moved = [...directories].flatMap((directory) => [
          context.workspace.realPath(path.resolve(directory, absolute)),
          context.workspace.realPath(joinAsKernel(directory, absolute)),
        ]);
        // A cd run by a child (`timeout 5 cd x`) leaves the shell where it was: keep both places.
        if (change.inShell && onlyAfterSuccess(context.joins, index, parsed.commands.length))
          directories.clear();
        for (const directory of moved) directories.add(directory);
      }
      return;
    }
    for (const run of programsOf(simple.argv).runs) {
      const found = readsOfRun(run);
      if (!found) continue;
      const runName = run.argv[0] ? programName(run.argv[0]) : name;
      for (const read of found) locate(read.word, runName, read);
    }
  });
  return reads;
}

/**
 * Whether everything after command `index` runs only when it succeeded: the commands from the last
 * `;` or newline before it to the end of the line are joined by `&&` alone.
 */
function onlyAfterSuccess(
  joins: readonly (string | undefined)[] | undefined,
  index: number,
  count: number,
): boolean {
  if (joins === undefined || joins.length !== count) return false;
  let start = index;
  while (start > 0 && joins[start - 1] !== ';' && joins[start - 1] !== '\n') start -= 1;
  return joins.slice(start, count - 1).every((operator) => operator === '&&');
}

/** The `cd` operand (after `-L`/`-P`/`-e`/`-@`), `~` for none; undefined for `cd -` or a computed or extra operand. */
function cdTarget(args: readonly ShellWord[], homeDir: string): ShellWord | undefined {
  const operands = args.filter(
    (word, index) =>
      !(
        /^-[LPe@]+$/.test(word.value) &&
        !word.dynamic &&
        args.slice(0, index).every((before) => before.value.startsWith('-'))
      ),
  );
  const rest = operands[0]?.value === '--' ? operands.slice(1) : operands;
  if (rest.length === 0) return { value: homeDir, source: homeDir, dynamic: false };
  if (rest.length > 1 || rest[0]?.value === '-') return undefined;
  const target = rest[0] as ShellWord;
  return literalPath(target, homeDir) === undefined ? undefined : target;
}

/** The path a word names as written (relative or absolute), or undefined when the shell decides it. */
function literalPath(word: ShellWord, homeDir: string): string | undefined {
  if (/^~(\/[^$`*?[{]*)?$/.test(word.source)) return path.join(homeDir, word.source.slice(1));
  if (word.dynamic) return undefined;
  return word.value === '' ? undefined : word.value;
}

/** `relative` under `directory` without simplifying `..` (the kernel applies it after the link before it). */
function joinAsKernel(directory: string, relative: string): string {
  return path.isAbsolute(relative) ? relative : `${directory.replace(/\/+$/, '')}/${relative}`;
}

/** The top of the git work tree holding `directory` (the nearest ancestor with a `.git`), or `directory` itself. */
function repositoryTop(directory: string): string {
  for (let current = directory; ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return directory;
  }
}
