import path from 'node:path';
import type { ShellWord } from './bash-command.js';
import type { WrittenWord } from './bash-types.js';
import { hasOption, optionValue, readOptions, type ReadOptions } from './bash-options.js';
import { programName, type ProgramRun } from './bash-programs.js';
import { DD_OPERANDS, isPlainSedScript, WRITER_OPTIONS } from './bash-writer-specs.js';
import { gitConfigWrites } from './bash-git-writes.js';

export type { WrittenWord } from './bash-types.js';

/**
 * What one program run writes, if it is a program whose writes hookloop reads: rm, rmdir, unlink,
 * mkdir, touch, truncate, tee, cp, mv, ln, install, `sed -i`, `dd of=`, `find -fprint…`.
 * - `written`: every path it writes (every operand, option values like `-t DIR` and `--target=DIR`,
 *   the files a copy creates inside a target directory, the sources `mv` removes).
 * - `notPlain`: why the run is more than a plain file edit acceptEdits may run (an option that
 *   runs a program, a sed script with `e`/`w`/`r`, an option hookloop does not know).
 * Undefined for any other program.
 */
export function writesOfRun(run: ProgramRun): { written: WrittenWord[]; notPlain?: string } | undefined {
  const [program, ...args] = run.argv;
  if (!program || program.dynamic) return undefined;
  const name = programName(program);
  if (name === 'dd') return ddWrites(args);
  if (name === 'find') return findWrites(args);
  if (name === 'git') return gitConfigWrites(args);
  const spec = WRITER_OPTIONS[name];
  if (!spec) return undefined;
  const read = readOptions(args, spec);
  const unknownPlace = (why: string) => ({ written: [{ word: undefined }], notPlain: `${name}: ${why}` });
  if (read.unknown !== undefined) return unknownPlace(read.unknown);
  const more = run.moreArguments ? [{ word: undefined }] : [];
  if (name === 'sed') return sedWrites(read, more);
  if (
    name === 'cp' ||
    name === 'mv' ||
    name === 'ln' ||
    (name === 'install' && !hasOption(read, '-d', '--directory'))
  ) {
    const written = copyWrites(name, read, run.moreArguments === true);
    // A link is more than a file edit: what it points to (maybe outside the workspace) is not checked here.
    // cp -l/-s make the same links as ln (a hard link shares the outside file's contents, a symlink leads out).
    const links =
      name === 'ln' || (name === 'cp' && hasOption(read, '-l', '-s', '--link', '--symbolic-link'));
    const runsProgram = hasOption(read, '--strip-program')
      ? { notPlain: 'install --strip-program runs a program' }
      : links
        ? { notPlain: `${name} creates a link` }
        : {};
    return { written: [...written, ...more], ...runsProgram };
  }
  // Option values of touch/truncate/mkdir (`-r FILE`, `-d DATE`, `-m MODE`) name no written path.
  return { written: [...read.operands.map((word) => ({ word, tree: name === 'rm' })), ...more] };
}

/** cp/mv/ln/install: the target (directory) and what is created in it; mv also removes its sources. */
function copyWrites(name: string, read: ReadOptions, moreArguments: boolean): WrittenWord[] {
  const targetOption = optionValue(read, '-t', '--target-directory');
  const operands = read.operands;
  const noTargetDirectory = hasOption(read, '-T', '--no-target-directory');
  let target = targetOption ?? (name === 'ln' && operands.length === 1 ? undefined : operands.at(-1));
  const sources = targetOption ? operands : operands.slice(0, -1);
  if (name === 'ln' && operands.length === 1 && !targetOption) {
    // `ln -s /x/y`: a link named `y` in the current directory.
    target = { value: '.', source: '.', dynamic: false };
    sources.push(operands[0] as ShellWord);
  }
  if (target === undefined || moreArguments) return [{ word: undefined }];
  const tree =
    name === 'mv' || (name === 'cp' && hasOption(read, '-r', '-R', '--recursive', '-a', '--archive'));
  const written: WrittenWord[] = [{ word: target, tree }];
  if (!noTargetDirectory) {
    const parents = hasOption(read, '--parents');
    for (const source of sources) {
      if (source.dynamic) written.push({ word: undefined });
      else written.push({ word: target, tree, child: parents ? source.value : path.basename(source.value) });
    }
  }
  if (name === 'mv') written.push(...sources.map((word) => ({ word, tree: true })));
  // A link is a second name of its source: a write through it writes the source, so the source counts
  // as written (`ln .claude/settings.json x && echo … > x`). A relative symbolic source is resolved
  // from the link's directory, which is only known when the command runs.
  const symbolic = hasOption(read, '-s', '--symbolic', '--symbolic-link');
  if (name === 'ln' || (name === 'cp' && hasOption(read, '-l', '-s', '--link', '--symbolic-link'))) {
    for (const source of sources)
      written.push(
        symbolic && !path.isAbsolute(source.value) && !source.value.startsWith('~')
          ? { word: undefined }
          : { word: source },
      );
  }
  return written;
}

/** `sed -i`: the files it edits in place (and their backups); without `-i` sed writes no file of its own. */
function sedWrites(
  read: ReadOptions,
  more: WrittenWord[],
): { written: WrittenWord[]; notPlain?: string } | undefined {
  const inPlace = read.options.find((option) => option.name === '-i' || option.name === '--in-place');
  const scripts = read.options
    .filter((option) => option.name === '-e' || option.name === '--expression')
    .map((option) => option.value);
  const files = [...read.operands];
  if (scripts.length === 0) {
    const script = files.shift();
    if (script) scripts.push(script);
  }
  const fromFile = hasOption(read, '-f', '--file');
  const plain =
    hasOption(read, '--sandbox') ||
    (!fromFile &&
      scripts.length > 0 &&
      scripts.every((script) => script !== undefined && !script.dynamic && isPlainSedScript(script.value)));
  const notPlain = plain
    ? {}
    : { notPlain: 'the sed script may run programs or write other files (e, w, r commands)' };
  if (!inPlace) return plain ? undefined : { written: [], ...notPlain };
  const suffix = inPlace.value?.value;
  const written: WrittenWord[] = files.map((word) => ({ word }));
  if (suffix !== undefined) {
    // A backup next to each file (`-i.bak`); a suffix with `/` or `*` places it elsewhere.
    if (inPlace.value?.dynamic || /[/*]/.test(suffix)) written.push({ word: undefined });
    else written.push(...files.map((word) => ({ word: { ...word, value: word.value + suffix } })));
  }
  return { written: [...written, ...more], ...notPlain };
}

function ddWrites(args: readonly ShellWord[]): { written: WrittenWord[]; notPlain?: string } {
  const written: WrittenWord[] = [];
  for (const word of args) {
    const key = /^([a-z]+)=/.exec(word.value)?.[1];
    if (key === undefined || !DD_OPERANDS.has(key) || (word.dynamic && !/^[a-z]+=/.test(word.source)))
      return { written: [{ word: undefined }], notPlain: `dd: the operand ${JSON.stringify(word.source)}` };
    if (key === 'of')
      written.push({
        word: { value: word.value.slice(3), source: word.source.slice(3), dynamic: word.dynamic },
      });
  }
  return written.length > 0 ? { written } : { written: [], notPlain: 'dd' };
}

function findWrites(args: readonly ShellWord[]): { written: WrittenWord[] } | undefined {
  const written: WrittenWord[] = [];
  args.forEach((word, index) => {
    if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(word.value))
      written.push({ word: args[index + 1] });
  });
  return written.length > 0 ? { written } : undefined;
}
