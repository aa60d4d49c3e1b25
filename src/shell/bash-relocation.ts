import { hasOption, readOptions } from './bash-options.js';
import { programName, type ProgramRun } from './bash-programs.js';
import { WRAPPERS } from './bash-wrappers.js';

/**
 * Where a wrapper moves the program it runs before that program resolves its paths:
 * `directory` — another working directory (`env -C DIR`, `env --chdir=DIR` and its abbreviations,
 * `sudo -D DIR`), so the wrapped program's relative paths are not the ones hookloop resolves;
 * `root` — another root directory (`chroot DIR`, `sudo -R DIR`), so none of its paths are.
 * Undefined for every other run. Pure; never throws.
 */
export function relocationOf(run: ProgramRun): 'directory' | 'root' | undefined {
  const [program, ...args] = run.argv;
  if (!program || program.dynamic) return undefined;
  const name = programName(program);
  if (name === 'chroot') return 'root';
  const moves = MOVES[name];
  const spec = WRAPPERS[name];
  if (!moves || !spec) return undefined;
  const read = readOptions(args, spec.options);
  if (moves.root && hasOption(read, ...moves.root)) return 'root';
  if (hasOption(read, ...moves.directory)) return 'directory';
  return undefined;
}

// The options that change directory or root, per wrapper (as bash-wrappers.ts reads them).
const MOVES: Readonly<
  Record<string, { readonly directory: readonly string[]; readonly root?: readonly string[] }>
> = {
  env: { directory: ['-C', '--chdir'] },
  sudo: { directory: ['-D', '--chdir'], root: ['-R', '--chroot'] },
};
