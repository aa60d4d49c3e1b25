import fs from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash-types.js';
import { hasOption, readOptions } from './bash-options.js';
import { programName, type ProgramRun } from './bash-programs.js';
import { WRITER_OPTIONS } from './bash-writer-specs.js';

/**
 * Programs that can leave symbolic links behind. Paths are resolved before a command runs, so a
 * link the command itself makes is not seen by that check: a later write of the same line through
 * it (`cp -a tree dest && echo x > dest/link/f`) could land anywhere. The caller treats such
 * writes as unknown places.
 * - `known`: `ln`, `mv`, and `cp` when it keeps links (`-P`, `-d`, `-a`, `-r`/`-R` without `-L`,
 *   `-s`): the links land at the paths it writes (the caller has them);
 * - `data`: a program whose input decides which links it makes: `tar`/`bsdtar` extraction, `unzip`,
 *   `cpio -i`, `7z x`, `rsync`, `patch` and git commands that check files out (`clone`, `checkout`,
 *   `switch`, `restore`, `reset`, `merge`, `pull`, `stash`, `apply`, `am`, `cherry-pick`, `rebase`,
 *   `worktree`): anywhere below its working directory.
 */
export function linkMaking(run: ProgramRun): 'known' | 'data' | undefined {
  const [program, ...args] = run.argv;
  if (program === undefined || program.dynamic) return undefined;
  const name = programName(program);
  if (name === 'ln' || name === 'mv') return 'known';
  if (name === 'cp') return keepsLinks(args) ? 'known' : undefined;
  if (name === 'tar' || name === 'bsdtar')
    return args.some(
      (word) => /^-?[A-Za-z]*x/.test(word.value) || word.value === '--extract' || word.value === '--get',
    )
      ? 'data'
      : undefined;
  if (['unzip', 'cpio', '7z', '7za', 'rsync', 'patch', 'busybox'].includes(name)) return 'data';
  if (name === 'git') return args.some((word) => GIT_CHECKOUTS.has(word.value)) ? 'data' : undefined;
  return undefined;
}

const GIT_CHECKOUTS = new Set([
  'clone',
  'checkout',
  'switch',
  'restore',
  'reset',
  'merge',
  'pull',
  'stash',
  'apply',
  'am',
  'cherry-pick',
  'rebase',
  'worktree',
  'read-tree',
  'checkout-index',
]);

/** cp copies a symlink as a link: with -P/-d/-a/-s, or recursively without -L (GNU cp follows links in a recursive copy only with -L or -H). */
function keepsLinks(args: readonly ShellWord[]): boolean {
  const spec = WRITER_OPTIONS['cp'];
  if (!spec) return true;
  const read = readOptions(args, spec);
  if (read.unknown !== undefined) return true;
  if (hasOption(read, '-P', '--no-dereference', '-d', '-a', '--archive', '-s', '--symbolic-link'))
    return true;
  return hasOption(read, '-r', '-R', '--recursive') && !hasOption(read, '-L', '--dereference');
}

// Entries looked at below the sources of one copy before giving up (it then counts as holding links).
const WALK_LIMIT = 2000;

/**
 * Whether a `known` link maker's sources (`cp` that keeps links, `mv`) are or hold a symbolic link
 * — whose meaning changes where it lands (a relative target is resolved from its new directory) —
 * or cannot be looked through (a computed source, too many entries). `ln` always makes one.
 */
export function copiesLinks(
  run: ProgramRun,
  cwd: string,
  madeEarlier: (file: string) => boolean = () => false,
): boolean {
  const [program, ...args] = run.argv;
  if (program === undefined) return true;
  const name = programName(program);
  if (name === 'ln') return true;
  const spec = WRITER_OPTIONS[name];
  if (!spec) return true;
  const read = readOptions(args, spec);
  if (read.unknown !== undefined || run.moreArguments === true) return true;
  const target = read.options.find((option) => option.name === '-t' || option.name === '--target-directory');
  const sources = target ? read.operands : read.operands.slice(0, -1);
  let budget = WALK_LIMIT;
  for (const source of sources) {
    if (source.dynamic) return true;
    // A source an earlier part of the line made may be anything by then.
    if (madeEarlier(path.resolve(cwd, source.value))) return true;
    const pending = [path.resolve(cwd, source.value)];
    while (pending.length > 0) {
      if (--budget < 0) return true;
      const file = pending.pop() as string;
      let stats: fs.Stats;
      try {
        stats = fs.lstatSync(file);
      } catch {
        continue; // missing: the copy fails on it
      }
      if (stats.isSymbolicLink()) return true;
      if (!stats.isDirectory()) continue;
      try {
        for (const entry of fs.readdirSync(file)) pending.push(path.join(file, entry));
      } catch {
        return true; // unreadable here; who knows what the copy meets
      }
    }
  }
  return false;
}

/**
 * Where a `known` link maker puts what it makes: its target directory (`-t DIR`) or last operand,
 * resolved from `cwd` (`ln -s x` alone: the cwd); undefined when a word decides it at run time.
 */
export function linkDestination(run: ProgramRun, cwd: string): string | undefined {
  const [program, ...args] = run.argv;
  const spec = program === undefined ? undefined : WRITER_OPTIONS[programName(program)];
  if (program === undefined || spec === undefined || run.moreArguments === true) return undefined;
  const read = readOptions(args, spec);
  if (read.unknown !== undefined) return undefined;
  const target = read.options.find(
    (option) => option.name === '-t' || option.name === '--target-directory',
  )?.value;
  const word =
    target ??
    (programName(program) === 'ln' && read.operands.length === 1
      ? { value: '.', source: '.', dynamic: false }
      : read.operands.at(-1));
  return word === undefined || word.dynamic ? undefined : path.resolve(cwd, word.value);
}
