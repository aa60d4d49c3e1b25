import path from 'node:path';
import { parseBashCommand, type ShellWord } from './bash-command.js';
import { directoryChange, programName, programsOf, type ProgramRun } from './bash-programs.js';
import { CODE_READERS, type CodeReaderRow } from './code-readers.js';
import { linkMaking } from './bash-link-makers.js';
import { packageScripts, readMakefile } from './code-read-files.js';

/**
 * What one program of a command line reads as code (see `CODE_READERS`).
 * - `program`: the program as the command names it (`make`, `./run.sh`);
 * - `directory`: where it runs, absolute; undefined when the command computes it (`cd "$d"`), and
 *   then `files` are names that count in any directory;
 * - `files`: files it runs or loads (absolute when `directory` is known);
 * - `below`: files below `directory` (anywhere when unknown) whose relative path matches;
 * - `gitHooks`: the repository's hooks, which only the caller can list (they come from git's configuration);
 * - `anyFile`: a word the shell computes names what it runs: any file may be one.
 */
export interface CodeRead {
  readonly program: string;
  readonly directory: string | undefined;
  readonly files: readonly string[];
  readonly below?: RegExp;
  readonly gitHooks?: boolean;
  readonly anyFile?: boolean;
}

// package.json scripts may start other scripts that start programs: two levels are read.
const SCRIPT_DEPTH = 2;

/**
 * The files each program of `command` reads as code, run from `cwd` (`~` is `homeDir`): the rows
 * of `CODE_READERS` applied to every program the line runs (behind wrappers, `xargs`, `find -exec`
 * and literal `bash -c` scripts too), plus any program named by a path (`./run.sh`). Reads
 * package.json and makefiles to follow scripts and includes. An unreadable line reads nothing:
 * the permission policy never lets an allow rule approve one. Never throws.
 */
export async function codeReadsOf(command: string, cwd: string, homeDir: string): Promise<CodeRead[]> {
  return readsOfLine(command, cwd, homeDir, 0);
}

/**
 * Whether `command` runs a program that writes the files its input data names (`tar -x`, `unzip`,
 * `patch`, `git apply`/`checkout`/`pull`/`stash`…, see `linkMaking`): which files it writes is
 * known only when it runs. An unreadable line counts as one. Never throws.
 */
export async function writesFromData(command: string): Promise<boolean> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) return true;
  return parsed.commands.some((simple) =>
    programsOf(simple.argv).runs.some((run) => linkMaking(run) === 'data'),
  );
}

async function readsOfLine(
  command: string,
  cwd: string,
  homeDir: string,
  depth: number,
): Promise<CodeRead[]> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) return [];
  const found: CodeRead[] = [];
  // A `cd` moves where later programs run; both places count, since hookloop does not follow the line's control flow.
  const directories = new Set<string | undefined>([cwd]);
  for (const simple of parsed.commands) {
    const change = directoryChange(simple.argv);
    if (change) {
      const target = change.argv[1];
      directories.add(
        target === undefined || target.dynamic || change.name !== 'cd'
          ? undefined
          : resolve(target.value, cwd, homeDir),
      );
    }
    const { runs, scripts } = programsOf(simple.argv);
    for (const directory of directories) {
      for (const run of runs) found.push(...(await readsOfRun(run.argv, directory, homeDir, depth)));
      for (const script of scripts)
        if (!script.dynamic && depth < SCRIPT_DEPTH)
          found.push(...(await readsOfLine(script.value, directory ?? cwd, homeDir, depth + 1)));
    }
  }
  return found;
}

async function readsOfRun(
  argv: ProgramRun['argv'],
  directory: string | undefined,
  homeDir: string,
  depth: number,
): Promise<CodeRead[]> {
  const [program, ...args] = argv;
  if (program === undefined) return [];
  if (program.dynamic) return [{ program: program.source, directory, files: [], anyFile: true }];
  const name = programName(program);
  const found: CodeRead[] = [];
  if (program.value.includes('/'))
    found.push({ program: program.value, directory, files: [place(program.value, directory, homeDir)] });
  const values = args.map((word) => word.value);
  for (const row of CODE_READERS) {
    if (!row.programs.includes(name) || (row.when && !row.when(values))) continue;
    found.push(...(await readsOfRow(row, name, args, directory, homeDir, depth)));
  }
  return found;
}

async function readsOfRow(
  row: CodeReaderRow,
  name: string,
  args: readonly ShellWord[],
  start: string | undefined,
  homeDir: string,
  depth: number,
): Promise<CodeRead[]> {
  const directory = movedDirectory(row, args, start, homeDir);
  const files = (row.files ?? []).map((file) => place(file, directory, homeDir));
  const named = optionFiles(row.fileOptions ?? [], args);
  files.push(...named.files.map((file) => place(file, directory, homeDir)));
  // A file option whose value the shell computes (`make -f "$m"`) may name any file.
  let anyFile = named.computed;
  const more: CodeRead[] = [];
  for (const extra of row.more ?? []) {
    if (extra === 'operands') {
      for (const word of args) {
        if (word.dynamic) anyFile = true;
        else if (word.value !== '' && !word.value.startsWith('-'))
          files.push(place(word.value, directory, homeDir));
        else if (/^--?[\w-]+=./.test(word.value))
          files.push(place(word.value.slice(word.value.indexOf('=') + 1), directory, homeDir));
      }
    } else if (extra === 'make-includes' && directory !== undefined) {
      for (const makefile of files.slice()) {
        const read = readMakefile(makefile, directory);
        files.push(...read.includes);
        anyFile ||= read.computed;
        if (depth < SCRIPT_DEPTH)
          for (const recipe of read.recipes)
            more.push(
              ...(await readsOfLine(recipe, directory, homeDir, depth + 1)).map((found) => ({
                ...found,
                program: name,
              })),
            );
      }
    } else if (extra === 'package-scripts' && directory !== undefined && depth < SCRIPT_DEPTH) {
      for (const script of packageScripts(path.join(directory, 'package.json'), name, args))
        more.push(
          ...(await readsOfLine(script, directory, homeDir, depth + 1)).map((read) => ({
            ...read,
            program: name,
          })),
        );
    } else if (extra === 'program-operand') {
      more.push(...(await programOperandReads(name, args, directory, homeDir, depth)));
    } else if (extra === 'python-module') {
      const index = args.findIndex((word) => word.value === '-m');
      const module = args[index + 1];
      if (index >= 0 && module !== undefined)
        more.push(
          ...(await readsOfRun(args.slice(index + 1), directory, homeDir, depth)).map((read) => ({
            ...read,
            program: name,
          })),
        );
    }
  }
  const read: CodeRead = {
    program: name,
    directory,
    files,
    ...(row.below ? { below: row.below } : {}),
    ...(row.more?.includes('git-hooks') ? { gitHooks: true } : {}),
    ...(anyFile ? { anyFile } : {}),
  };
  return [read, ...more];
}

// What package managers run a package's binary with; `npx`-like programs run it as their first operand.
const EXEC_SUBCOMMANDS = new Set(['exec', 'x', 'dlx']);
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

/**
 * `npx vitest run`, `pnpm exec jest`, `yarn dlx x`: the program a package runner starts, read by
 * its own row (the package manager's own subcommands are not programs: only after `exec`/`x`/`dlx`).
 */
async function programOperandReads(
  name: string,
  args: readonly ShellWord[],
  directory: string | undefined,
  homeDir: string,
  depth: number,
): Promise<CodeRead[]> {
  let index = args.findIndex((word) => !word.value.startsWith('-'));
  if (index < 0) return [];
  if (!PACKAGE_RUNNERS.has(name)) {
    if (!EXEC_SUBCOMMANDS.has((args[index] as ShellWord).value)) return [];
    index = args.findIndex((word, at) => at > index && !word.value.startsWith('-'));
    if (index < 0) return [];
  }
  return (await readsOfRun(args.slice(index), directory, homeDir, depth)).map((read) => ({
    ...read,
    program: name,
  }));
}

/** The directory after the row's `-C DIR`/`--prefix=DIR` options (the last wins; a computed one is unknown). */
function movedDirectory(
  row: CodeReaderRow,
  args: readonly ShellWord[],
  start: string | undefined,
  homeDir: string,
): string | undefined {
  let directory = start;
  args.forEach((word, index) => {
    for (const option of row.directoryOptions ?? []) {
      const value =
        word.value === option
          ? args[index + 1]
          : word.value.startsWith(`${option}=`)
            ? { ...word, value: word.value.slice(option.length + 1) }
            : undefined;
      if (value === undefined) continue;
      directory =
        value.dynamic || directory === undefined ? undefined : resolve(value.value, directory, homeDir);
    }
  });
  return directory;
}

/** The values of `options` in `args` (`-f FILE`, `-fFILE`, `--file=FILE`); `computed` when one is an expansion. */
function optionFiles(
  options: readonly string[],
  args: readonly ShellWord[],
): { files: string[]; computed: boolean } {
  const files: string[] = [];
  let computed = false;
  const add = (word: ShellWord, value: string) => {
    if (word.dynamic) computed = true;
    else files.push(value);
  };
  args.forEach((word, index) => {
    for (const option of options) {
      const next = args[index + 1];
      if (word.value === option && next !== undefined) add(next, next.value);
      else if (option.startsWith('--') && word.value.startsWith(`${option}=`))
        add(word, word.value.slice(option.length + 1));
      else if (!option.startsWith('--') && word.value.startsWith(option) && word.value.length > option.length)
        add(word, word.value.slice(option.length));
    }
  });
  return { files, computed };
}

/** A word naming a file, absolute when `directory` is known (else as written, for a match in any directory). */
function place(value: string, directory: string | undefined, homeDir: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(homeDir, value.slice(1));
  if (path.isAbsolute(value) || directory === undefined) return value;
  return path.resolve(directory, value);
}

function resolve(value: string, from: string, homeDir: string): string {
  return place(value, from, homeDir);
}
