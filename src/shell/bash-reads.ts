// Which files a program run reads, for the two checks Claude Code makes on the paths of shell
// commands and hookloop makes too: a path under a Read deny rule is refused, and a command that
// reads outside the working directories is not run without a person's approval. The rule is one
// property of how a command is read: every word that a reading program takes as a file — operands,
// the values of flags such as `grep -f FILE` or `--exclude-from=FILE`, what `find` starts from,
// `REV:path` in git — is a read path; a recursive reader reads the whole tree below its operands.

import type { ShellWord } from './bash-command.js';
import { readOptions } from './bash-options.js';
import { programName, type ProgramRun } from './bash-programs.js';
import { WRITER_OPTIONS } from './bash-writer-specs.js';
import { splitArguments, type SplitFlag } from './read-only-command.js';
import { READ_ONLY_GIT, READ_ONLY_PROGRAMS, type ProgramFlags } from './read-only-programs.js';

/** One path a program run reads, before it is resolved against a directory. */
export interface ReadWord {
  /** The word naming the path; undefined when the path is only known when the command runs (`cat "$f"`, `xargs cat`). */
  readonly word: ShellWord | undefined;
  /** The reader goes through the whole tree below the path (`grep -r`, `find`, `rg`, `du`). */
  readonly tree: boolean;
  /** Going through the tree, the reader follows symbolic links (`grep -R`, `find -L`, `rg -L`, `diff -r`). */
  readonly follows: boolean;
  /** Going through the tree, the reader skips names starting with `.` (rg without `--hidden`). */
  readonly skipsHidden: boolean;
  /** The path is relative to the git repository's top directory (`git show HEAD:path`), not to the cwd. */
  readonly fromRepositoryTop?: boolean;
  /**
   * The options could not be read with confidence, so this word was only taken as a possible file
   * (it may be an option's value, `sort -o OUT`): Read deny and ask rules still apply to it; the
   * working-directory check does not (the command is not read-only anyway).
   */
  readonly guessed?: boolean;
}

/** How a program takes its files (see `READERS`). */
interface ReaderSpec {
  /** `all`: every operand is a file; `afterPattern`: the first operand is a pattern or program, unless a `patternFlags` flag gave one. */
  readonly operands: 'all' | 'afterPattern' | 'first';
  readonly patternFlags?: readonly string[];
  /** Flags whose value names a file that is read (`grep -f FILE`). */
  readonly pathFlags?: readonly string[];
  /** `always`, or the flags that make it go through directories. */
  readonly tree?: 'always' | readonly string[];
  /** The flags that make the walk follow links; `unlessNoDereference`: it does unless `--no-dereference`. */
  readonly follows?: readonly string[] | 'unlessNoDereference';
  /** Without a file operand it reads `.` (only when walking, for `onlyWhenTree`). */
  readonly defaultDot?: 'always' | 'onlyWhenTree';
  /** It skips dot-names unless one of these flags is given (rg). */
  readonly hiddenFlags?: readonly string[];
}

const ALL: ReaderSpec = { operands: 'all' };
// `test`/`[` words that are operators; every other word may name a file (`-f FILE`, `A -nt B`), strings included.
const TEST_OPERATORS = new Set([
  '!',
  '(',
  ')',
  ']',
  '-a',
  '-o',
  '=',
  '==',
  '!=',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
  '-n',
  '-z',
  ...'bcdefghkLprsStuwxGNOV'.split('').map((letter) => `-${letter}`),
]);
const CHECKSUMS = new Set([
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'sum',
]);
const GREP: ReaderSpec = {
  operands: 'afterPattern',
  patternFlags: ['-e', '--regexp', '-f', '--file'],
  pathFlags: ['-f', '--file', '--exclude-from'],
  tree: ['-r', '-R', '--recursive', '--dereference-recursive'],
  follows: ['-R', '--dereference-recursive'],
  defaultDot: 'onlyWhenTree',
};

/**
 * The reading programs: those hookloop may run as read-only (read-only-programs.ts) and the common
 * ones outside that list whose files are plain to see (pagers, `tac`, `xxd`, interpreters' `source`).
 */
const READERS: Readonly<Record<string, ReaderSpec>> = {
  ...Object.fromEntries(
    [
      'cat',
      'head',
      'tail',
      'wc',
      'sort',
      'uniq',
      'cut',
      'nl',
      'fold',
      'expand',
      'unexpand',
      'paste',
      'rev',
      'column',
      'od',
      'hexdump',
      'strings',
      'base64',
      'base32',
      'md5sum',
      'sha1sum',
      'sha224sum',
      'sha256sum',
      'sha384sum',
      'sha512sum',
      'b2sum',
      'cksum',
      'stat',
      'readlink',
      'file',
      'cmp',
      'comm',
      'df',
    ]
      .concat([
        'tac',
        'less',
        'more',
        'most',
        'xxd',
        'bat',
        'batcat',
        'view',
        'vi',
        'vim',
        'nvim',
        'nano',
        'zcat',
        'bzcat',
        'xzcat',
        'zless',
        'zmore',
        'iconv',
        'dos2unix',
        'unix2dos',
        'shuf',
        'split',
        'csplit',
        'pr',
        'fmt',
        'tsort',
        'look',
        'join',
        'sum',
        'ptx',
      ])
      .map((name) => [name, ALL]),
  ),
  realpath: { operands: 'all', pathFlags: ['--relative-to', '--relative-base'] },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  zgrep: GREP,
  rg: {
    operands: 'afterPattern',
    patternFlags: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
    pathFlags: ['-f', '--file', '--ignore-file'],
    tree: 'always',
    follows: ['-L', '--follow'],
    defaultDot: 'always',
    hiddenFlags: ['--hidden', '-.', '-u', '--unrestricted', '-g', '--glob', '--iglob'],
  },
  ls: { operands: 'all', tree: ['-R', '--recursive'], follows: ['-L', '--dereference'] },
  du: { operands: 'all', tree: 'always', follows: ['-L', '--dereference'], defaultDot: 'always' },
  tree: { operands: 'all', tree: 'always', follows: ['-l'], defaultDot: 'always' },
  diff: {
    operands: 'all',
    pathFlags: ['-X', '--exclude-from'],
    tree: ['-r', '--recursive'],
    follows: 'unlessNoDereference',
  },
  jq: {
    operands: 'afterPattern',
    patternFlags: ['-f', '--from-file'],
    pathFlags: ['-f', '--from-file', '--rawfile', '--slurpfile'],
  },
  awk: { operands: 'afterPattern', patternFlags: ['-f', '--file'], pathFlags: ['-f', '--file'] },
  gawk: { operands: 'afterPattern', patternFlags: ['-f', '--file'], pathFlags: ['-f', '--file'] },
  source: { operands: 'first' },
  // Interpreters read their script file and often the files named after it: with no flag table,
  // every word that is not an option is a possible file (for Read rules only).
  ...Object.fromEntries(
    ['python', 'python3', 'perl', 'ruby', 'node', 'php', 'lua', 'bash', 'sh', 'dash', 'zsh', 'ksh'].map(
      (name) => [name, ALL],
    ),
  ),
  '.': { operands: 'first' },
};

/**
 * The files one program run reads (see `ReadWord`), or undefined for a program that is not a
 * known reader. Options a reader's table does not list make every word that is not an option a
 * possible path (more paths are checked, never fewer). Pure; never throws.
 */
export function readsOfRun(run: ProgramRun): ReadWord[] | undefined {
  const [program, ...args] = run.argv;
  if (!program || program.dynamic) return undefined;
  const name = programName(program);
  if (run.placeholderPaths) {
    // `find … -exec cat {} +`: the program reads what find found below its starting points.
    const own = readsOfRun({ ...run, placeholderPaths: undefined }) ?? [];
    return [
      ...own,
      ...run.placeholderPaths.map((word) => ({ word, tree: true, follows: false, skipsHidden: false })),
    ];
  }
  const unknownMore = run.moreArguments ? [unknownRead()] : [];
  if (name === 'find') return [...findReads(args), ...unknownMore];
  if (name === 'git') return gitReads(args);
  if (name === 'dd')
    return args
      .filter((word) => word.value.startsWith('if='))
      .map((word) => plainRead({ ...word, value: word.value.slice(3) }));
  if (name === 'cp' || name === 'mv' || name === 'ln' || name === 'install')
    return [...copySources(name, args), ...unknownMore];
  if (name === 'sed') return [...sedReads(args), ...unknownMore];
  if (name === 'test' || name === '[')
    return args
      .filter((word) => word.dynamic || !TEST_OPERATORS.has(word.value))
      .map((word) => readOf(word, false, false, false));
  const spec = READERS[name];
  if (!spec) return undefined;
  // `sha256sum -c LIST` reads the files LIST names, which no word of the command spells.
  if (CHECKSUMS.has(name) && args.some((word) => word.value === '--check' || /^-[a-z]*c/.test(word.value)))
    return [...specReads(spec, READ_ONLY_PROGRAMS[name], args), unknownRead()];
  return [...specReads(spec, READ_ONLY_PROGRAMS[name], args), ...unknownMore];
}

function unknownRead(): ReadWord {
  return { word: undefined, tree: true, follows: true, skipsHidden: false };
}

function plainRead(word: ShellWord): ReadWord {
  return { word, tree: false, follows: false, skipsHidden: false };
}

/**
 * A word that may expand to something else is an unknown read — except a glob or brace word
 * without parameters (`secrets/*`, `src/{a,b}.ts`, `~/.ssh/*`): whatever it expands to lies below
 * the directory its fixed start names, so it reads (at most) that whole tree.
 */
function readOf(word: ShellWord, tree: boolean, follows: boolean, skipsHidden: boolean): ReadWord {
  if (!word.dynamic) return { word, tree, follows, skipsHidden };
  const start = globStart(word.value);
  return start === undefined
    ? unknownRead()
    : {
        word: { value: start, source: start, dynamic: start.startsWith('~') },
        tree: true,
        follows,
        skipsHidden: false,
      };
}

/** The directory a glob or brace pattern's matches all lie below (`a/b*` → `a`, `*` → `.`), or undefined when it holds an expansion. */
function globStart(value: string): string | undefined {
  if (/[$`]/.test(value) || (value.startsWith('~') && !/^~(\/|$)/.test(value))) return undefined;
  const first = value.search(/[*?[{(]/);
  if (first < 0) return value === '~' || value.startsWith('~/') ? value : undefined;
  const slash = value.lastIndexOf('/', first);
  return slash < 0 ? '.' : slash === 0 ? '/' : value.slice(0, slash);
}

function specReads(
  spec: ReaderSpec,
  flags: ProgramFlags | undefined,
  args: readonly ShellWord[],
): ReadWord[] {
  // A computed word counts as an operand (a glob's fixed start is still known), unless it starts like an option.
  const split =
    flags && !args.some((word) => word.dynamic && word.value.startsWith('-'))
      ? splitArguments(
          flags,
          args.map((word) => (word.dynamic ? `./${word.value}` : word.value)),
        )
      : undefined;
  if (!split) {
    // Not read with confidence: every word that is not an option may be a file, and the walk is the worst case.
    const words = args.filter((word) => word.dynamic || !word.value.startsWith('-'));
    return words.map((word) => ({
      ...readOf(word, spec.tree !== undefined, spec.follows !== undefined, false),
      guessed: true,
    }));
  }
  const has = (names: readonly string[] | undefined): boolean =>
    names !== undefined && split.flags.some((flag) => names.includes(flag.name));
  const directoriesRecurse = split.flags.some(
    (flag) =>
      (flag.name === '-d' || flag.name === '--directories') && valueOf(flag, args)?.value === 'recurse',
  );
  const tree = spec.tree === 'always' || (spec.tree !== undefined && has(spec.tree)) || directoriesRecurse;
  const follows =
    tree && (spec.follows === 'unlessNoDereference' ? !has(['--no-dereference']) : has(spec.follows));
  const skipsHidden = spec.hiddenFlags !== undefined && !has(spec.hiddenFlags);
  let operands = split.operands.map((index) => args[index] as ShellWord);
  if (spec.operands === 'afterPattern' && !has(spec.patternFlags)) operands = operands.slice(1);
  if (spec.operands === 'first') operands = operands.slice(0, 1);
  const reads = operands.map((word) => readOf(word, tree, follows, skipsHidden));
  for (const flag of split.flags) {
    if (!spec.pathFlags?.includes(flag.name)) continue;
    const value = valueOf(flag, args);
    reads.push(value ? readOf(value, false, false, false) : unknownRead());
  }
  if (operands.length === 0 && (spec.defaultDot === 'always' || (spec.defaultDot === 'onlyWhenTree' && tree)))
    reads.push({ word: { value: '.', source: '.', dynamic: false }, tree, follows, skipsHidden });
  return reads;
}

function valueOf(flag: SplitFlag, args: readonly ShellWord[]): ShellWord | undefined {
  if (flag.value === undefined) return undefined;
  if ('attached' in flag.value)
    return { value: flag.value.attached, source: flag.value.attached, dynamic: false };
  return args[flag.value.index];
}

const FIND_PATH_PRIMARIES = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);

/** `find [-H|-L|-P] [-D x] [-Ox] START… EXPRESSION`: the starting points (walked) and files named by `-newer FILE` and the like. */
function findReads(args: readonly ShellWord[]): ReadWord[] {
  let index = 0;
  let follows = false;
  while (index < args.length && /^-([HLP]|O\d*|D)$/.test(args[index]?.value ?? '')) {
    if (args[index]?.value === '-L') follows = true;
    index += args[index]?.value === '-D' ? 2 : 1;
  }
  const starts: ShellWord[] = [];
  while (index < args.length && !/^[-(!),]/.test(args[index]?.value ?? '-'))
    starts.push(args[index++] as ShellWord);
  const rest = args.slice(index);
  if (rest.some((word) => word.value === '-follow')) follows = true;
  const reads = (starts.length > 0 ? starts : [{ value: '.', source: '.', dynamic: false }]).map((word) =>
    readOf(word, true, follows, false),
  );
  rest.forEach((word, at) => {
    const next = rest[at + 1];
    // -newerXY FILE compares with FILE's time, except -newerXt, whose value is a date.
    const namesFile = FIND_PATH_PRIMARIES.has(word.value) || /^-newer[aBcm][aBcm]$/.test(word.value);
    if (namesFile) reads.push(next ? readOf(next, false, false, false) : unknownRead());
  });
  return reads;
}

/**
 * git: every operand may be a path (a revision such as `HEAD~1` or `main..topic` names nothing
 * outside the cwd, so reading it as a path costs nothing): each one is a tree read, as a pathspec
 * covers what is below it. `REV:path` reads `path` relative to the repository's top (or to the
 * cwd with `./`), pathspec magic (`:/`, `:(top)`) the whole repository; `git grep` without a
 * pathspec walks the cwd. The pattern of `git grep` is not a path.
 */
function gitReads(args: readonly ShellWord[]): ReadWord[] {
  let index = 0;
  while (index < args.length && (args[index]?.value ?? '').startsWith('-')) index += 1;
  const subcommand = args[index]?.value;
  const rest = args.slice(index + 1);
  const spec =
    subcommand !== undefined && Object.hasOwn(READ_ONLY_GIT, subcommand)
      ? READ_ONLY_GIT[subcommand]
      : undefined;
  const split =
    spec && !rest.some((word) => word.dynamic)
      ? splitArguments(
          spec,
          rest.map((word) => word.value),
        )
      : undefined;
  if (!split)
    return rest
      .filter((word) => word.dynamic || !word.value.startsWith('-'))
      .map((word) => (word.dynamic ? unknownRead() : { ...gitOperandRead(word), guessed: true }));
  const has = (pattern: RegExp): boolean => split.flags.some((flag) => pattern.test(flag.name));
  let operands = split.operands.map((at) => rest[at] as ShellWord);
  if (subcommand === 'grep' && !has(/^(-e|-f|--file)$/)) operands = operands.slice(1);
  const reads = operands.map(gitOperandRead);
  // Files named by flags: `git grep -f PATTERNS`, `git ls-files -X`/`--exclude-from`.
  for (const flag of split.flags)
    if (['-f', '--file', '-X', '--exclude-from'].includes(flag.name) && flag.value !== undefined)
      reads.push(readOfValue(flag, rest));
  if (subcommand === 'grep') {
    if (operands.length === 0)
      reads.push({
        word: { value: '.', source: '.', dynamic: false },
        tree: true,
        follows: false,
        skipsHidden: false,
      });
  }
  return reads;
}

function readOfValue(flag: SplitFlag, args: readonly ShellWord[]): ReadWord {
  const value = valueOf(flag, args);
  return value ? readOf(value, false, false, false) : unknownRead();
}

function gitOperandRead(word: ShellWord): ReadWord {
  if (word.value.startsWith(':/') || word.value.startsWith(':('))
    return {
      word: { ...word, value: '.' },
      tree: true,
      follows: false,
      skipsHidden: false,
      fromRepositoryTop: true,
    };
  const colon = word.value.indexOf(':');
  if (colon < 0) return { word, tree: true, follows: false, skipsHidden: false };
  const file = word.value.slice(colon + 1).replace(/^[0-3]:/, '');
  const relative = file === '.' || file === '..' || file.startsWith('./') || file.startsWith('../');
  return {
    word: { ...word, value: file === '' ? '.' : file },
    tree: true,
    follows: false,
    skipsHidden: false,
    ...(relative ? {} : { fromRepositoryTop: true }),
  };
}

/** cp/mv/ln/install read their sources (a hard link or copy makes a denied or outside file readable under a new name). */
function copySources(name: string, args: readonly ShellWord[]): ReadWord[] {
  const spec = WRITER_OPTIONS[name];
  if (!spec) return [];
  const read = readOptions(args, spec);
  if (read.unknown !== undefined) return [unknownRead()];
  const targetGiven = read.options.some(
    (option) => option.name === '-t' || option.name === '--target-directory',
  );
  const sources = targetGiven ? read.operands : read.operands.slice(0, -1);
  if (name === 'ln' && !targetGiven && read.operands.length === 1)
    sources.push(read.operands[0] as ShellWord);
  if (
    name === 'install' &&
    read.options.some((option) => option.name === '-d' || option.name === '--directory')
  )
    return [];
  return sources.map((word) => readOf(word, name !== 'ln', false, false));
}

/** sed reads its files (after the script, unless `-e`/`-f` gave it) and `-f` script files. */
function sedReads(args: readonly ShellWord[]): ReadWord[] {
  const spec = WRITER_OPTIONS['sed'];
  if (!spec) return [];
  const read = readOptions(args, spec);
  if (read.unknown !== undefined) return [unknownRead()];
  const scripts = read.options.filter((option) =>
    ['-e', '--expression', '-f', '--file'].includes(option.name),
  );
  const files = scripts.length > 0 ? read.operands : read.operands.slice(1);
  const scriptFiles = read.options
    .filter((option) => option.name === '-f' || option.name === '--file')
    .map((option) => option.value);
  return [...files, ...scriptFiles].map((word) => (word ? readOf(word, false, false, false) : unknownRead()));
}
