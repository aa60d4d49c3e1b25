import type { ShellWord } from './bash-types.js';
import { hasOption, optionValue, readOptions } from './bash-options.js';
import { SHELLS, WRAPPERS } from './bash-wrappers.js';

/**
 * One program a simple command runs: the command's own program, or one run through a wrapper
 * (`sudo rm x` runs `sudo` and `rm`), `find -exec`, or `find -delete` (counted as `rm` of find's
 * starting points).
 */
export interface ProgramRun {
  /** The program and its arguments, as far as they are known before the command runs. */
  readonly argv: readonly ShellWord[];
  /** Where `argv` starts in the simple command's words (for `find -delete`, the `-delete` word). */
  readonly offset: number;
  /** A wrapper that changes nothing an allow rule is about (`timeout 5`, `nice`): allow rules need not name it. */
  readonly transparent: boolean;
  /** `find … -delete`, counted as `rm` of the starting points: no words of the command spell it. */
  readonly synthetic?: boolean;
  /** `xargs`: more arguments come from standard input. */
  readonly moreArguments?: boolean;
  /** `find -exec`: the paths `{}` stands for (find's starting points and what is below them). */
  readonly placeholderPaths?: readonly ShellWord[];
}

/**
 * What one simple command runs (see `programsOf`).
 * - `runs`: every program run, the outermost first.
 * - `scripts`: strings that are run as shell commands (`bash -c S`, `eval …`, `trap S`, `env -S S`,
 *   `watch …`, `su -c S`, `alias x=S`), literal ones only; the caller reads them as commands.
 * - `unknown`: set when a program cannot be known before the command runs: a computed program name
 *   (`$r x`, `$(echo rm) x`), a script that is not literal, a shell reading its commands from
 *   standard input, an interactive shell, or a wrapper option hookloop does not know (the rest of
 *   the words may then be anything). Deny and ask rules then match; no allow rule does.
 */
export interface CommandPrograms {
  readonly runs: readonly ProgramRun[];
  readonly scripts: readonly ShellWord[];
  readonly unknown?: string;
}

/** The program name of a word: the basename of a path (`/bin/rm` → `rm`). */
export function programName(word: ShellWord): string {
  return word.value.replace(/\/+$/, '').replace(/^.*\//, '');
}

/**
 * What the simple command `argv` (its words, without leading assignments) runs: looks through the
 * wrappers of `WRAPPERS` with their options, shells' `-c`, `eval`, `trap`, `alias`, `hash -p`,
 * `find -exec/-execdir/-ok/-okdir/-delete` and `xargs`. Pure and synchronous; never throws.
 */
export function programsOf(argv: readonly ShellWord[]): CommandPrograms {
  const found = {
    runs: [] as ProgramRun[],
    scripts: [] as ShellWord[],
    unknown: undefined as string | undefined,
  };
  collect(argv, 0, found, {});
  return {
    runs: found.runs,
    scripts: found.scripts,
    ...(found.unknown !== undefined ? { unknown: found.unknown } : {}),
  };
}

interface Found {
  runs: ProgramRun[];
  scripts: ShellWord[];
  unknown: string | undefined;
}

function collect(
  argv: readonly ShellWord[],
  offset: number,
  found: Found,
  extra: Pick<ProgramRun, 'moreArguments' | 'placeholderPaths'>,
): void {
  let start = 0;
  const fail = (reason: string): void => {
    found.unknown ??= reason;
  };
  for (;;) {
    const words = argv.slice(start);
    const program = words[0];
    if (program === undefined) return;
    const run: ProgramRun & { transparent: boolean } = {
      argv: words,
      offset: offset + start,
      transparent: false,
      ...extra,
    };
    found.runs.push(run);
    if (program.dynamic)
      return fail(`the program name ${JSON.stringify(program.source)} is computed when the command runs`);
    const name = programName(program);
    const args = words.slice(1);
    if (SHELLS.has(name)) return shellRun(args, found, fail);
    if (name === 'eval') return addScript(joined(args), found, fail);
    // `source FILE` / `. FILE` run FILE's commands in this shell: from standard input, a descriptor
    // or a process substitution (`. <(echo rm x)`, `source /dev/stdin <<< …`) like `… | bash`.
    if (
      (name === 'source' || name === '.') &&
      (args[0] === undefined ||
        args[0].dynamic ||
        /^\/(dev|proc)\//.test(args[0].value) ||
        args[0].value === '-')
    ) {
      return fail(`${name} reads commands that are only known when the command runs`);
    }
    if (name === 'trap') return trapRun(args, found, fail);
    if (name === 'alias') {
      for (const word of args)
        if (word.value.includes('='))
          addScript({ ...word, value: word.value.slice(word.value.indexOf('=') + 1) }, found, fail);
      return;
    }
    if (
      (name === 'hash' && args.some((word) => /^-\w*p/.test(word.value))) ||
      (name === 'enable' && args.some((word) => /^-\w*f/.test(word.value)))
    ) {
      return fail(`${name} can change which program a name runs`);
    }
    if (name === 'find') return findRuns(args, offset + start + 1, found, fail);
    if (name === 'git') {
      const setting = gitCodeSetting(args);
      if (setting !== undefined) return fail(`git ${setting} may name a program git runs`);
    }
    const spec = WRAPPERS[name];
    if (!spec) return;
    const read = readOptions(args, spec.options);
    if (read.unknown !== undefined)
      return fail(`${name}: ${read.unknown}, so the program it runs is not known`);
    if (spec.noProgram && hasOption(read, ...spec.noProgram)) return;
    const script = spec.script && optionValue(read, ...spec.script);
    if (script) return addScript(script, found, fail);
    let next = 1 + read.rest;
    run.transparent =
      spec.transparent === true && !(spec.opaqueOptions && hasOption(read, ...spec.opaqueOptions));
    if (name === 'env') {
      const split = optionValue(read, '-S', '--split-string');
      // `env -S 'prog args' more…`: the string is split into words, the words after it follow.
      if (split) return addScript(joined([split, ...words.slice(next)]), found, fail);
    }
    if (spec.assignments) {
      while (next < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[next]?.value ?? '')) {
        if (words[next]?.dynamic && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[next]?.source ?? ''))
          return fail(`${name}: the word ${JSON.stringify(words[next]?.source)} is computed`);
        run.transparent = false;
        next += 1;
      }
    }
    next += spec.operandsBefore ?? 0;
    if (name === 'flock' && (words[next]?.value === '-c' || words[next]?.value === '--command')) {
      const flockScript = words[next + 1];
      return flockScript ? addScript(flockScript, found, fail) : fail('flock -c without a command');
    }
    if (spec.options.stopAtOperand !== true) return fail(`${name} without a command runs a shell`);
    if (next >= words.length) {
      if (spec.defaultProgram === 'shell') return fail(`${name} without a program runs a shell`);
      if (spec.defaultProgram === 'echo')
        found.runs.push({
          argv: [{ value: 'echo', source: name, dynamic: false }],
          offset: offset + start,
          transparent: false,
          moreArguments: true,
        });
      return;
    }
    if (name === 'watch' && !hasOption(read, '-x', '--exec'))
      return addScript(joined(words.slice(next)), found, fail);
    if (words[next]?.dynamic) {
      found.runs.push({
        argv: words.slice(next),
        offset: offset + start + next,
        transparent: false,
        ...extra,
      });
      return fail(
        `the program name ${JSON.stringify(words[next]?.source)} is computed when the command runs`,
      );
    }
    if (name === 'xargs') {
      collect(words.slice(next), offset + start + next, found, { moreArguments: true });
      return;
    }
    start += next;
  }
}

function joined(words: readonly ShellWord[]): ShellWord {
  return {
    value: words.map((word) => word.value).join(' '),
    source: words.map((word) => word.source).join(' '),
    dynamic: words.some((word) => word.dynamic),
  };
}

function addScript(script: ShellWord, found: Found, fail: (reason: string) => void): void {
  if (script.dynamic)
    return fail(`the script ${JSON.stringify(script.source)} is computed when the command runs`);
  found.scripts.push(script);
}

/** `bash [options] -c SCRIPT`, `bash FILE`, or `bash` reading commands from standard input. */
function shellRun(args: readonly ShellWord[], found: Found, fail: (reason: string) => void): void {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (word.dynamic)
      return fail(`the shell argument ${JSON.stringify(word.source)} is computed when the command runs`);
    if (word.value === '--' || word.value === '-') break;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word.value)) {
      const script = args.slice(index + 1).find((next) => !/^[-+][A-Za-z]+$/.test(next.value));
      return script ? addScript(script, found, fail) : fail('a shell -c without a script');
    }
    if (/^[-+][oO]$/.test(word.value) || word.value === '--rcfile' || word.value === '--init-file')
      index += 1;
    else if (!/^[-+]/.test(word.value))
      return; // a script file: a program like any other
    else if (/^-[A-Za-z]*s/.test(word.value)) break;
  }
  fail('a shell reads its commands from standard input');
}

function trapRun(args: readonly ShellWord[], found: Found, fail: (reason: string) => void): void {
  const rest = args[0]?.value === '--' ? args.slice(1) : args;
  const action = rest[0];
  if (action === undefined || rest.length < 2 || /^-[lp]$/.test(action.value) || action.value === '-') return;
  addScript(action, found, fail);
}

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_VALUE_PRIMARIES = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-type',
  '-xtype',
  '-size',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-newer',
  '-anewer',
  '-cnewer',
  '-inum',
  '-links',
  '-samefile',
  '-lname',
  '-ilname',
  '-maxdepth',
  '-mindepth',
  '-used',
  '-fstype',
  '-context',
  '-printf',
  '-fprint',
  '-fprint0',
  '-fls',
  '-regextype',
  '-files0-from',
]);

/**
 * `find [-H|-L|-P] [-D x] [-Ox] PATH… EXPRESSION`: each `-exec … ;`/`-exec … {} +` is a run, and
 * `-delete` is `rm` of the starting points. A computed word where an action could stand makes it unknown.
 */
function findRuns(
  args: readonly ShellWord[],
  offset: number,
  found: Found,
  fail: (reason: string) => void,
): void {
  let index = 0;
  while (index < args.length && /^-([HLP]|O\d*|D)$/.test(args[index]?.value ?? ''))
    index += args[index]?.value === '-D' ? 2 : 1;
  const starts: ShellWord[] = [];
  while (index < args.length && !/^[-(!),]/.test(args[index]?.value ?? '-')) {
    if (args[index]?.dynamic && /^[$`*?[{]/.test(args[index]?.value ?? ''))
      return fail(`find: the word ${JSON.stringify(args[index]?.source)} may expand to an action`);
    starts.push(args[index] as ShellWord);
    index += 1;
  }
  const startPaths = starts.length > 0 ? starts : [{ value: '.', source: '.', dynamic: false }];
  for (; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return fail(`find: the word ${JSON.stringify(word.source)} may expand to an action`);
    if (FIND_VALUE_PRIMARIES.has(word.value) || word.value.startsWith('-newer')) index += 1;
    else if (word.value === '-fprintf') index += 2;
    else if (word.value === '-delete') {
      found.runs.push({
        argv: [
          { value: 'rm', source: '-delete', dynamic: false },
          { value: '-r', source: '-delete', dynamic: false },
          ...startPaths,
        ],
        offset: offset + index,
        transparent: false,
        synthetic: true,
      });
    } else if (EXEC_ACTIONS.has(word.value)) {
      const end = args.findIndex(
        (next, at) =>
          at > index &&
          !next.dynamic &&
          (next.value === ';' || (next.value === '+' && args[at - 1]?.value === '{}')),
      );
      if (end < 0) return fail(`find ${word.value} without its terminating ';' or '+'`);
      const command = args.slice(index + 1, end);
      if (command.length === 0) return fail(`find ${word.value} without a command`);
      collect(command, offset + index + 1, found, { placeholderPaths: startPaths });
      index = end;
    }
  }
}

// Builtins that move the shell itself: the paths of the commands after them resolve elsewhere.
const DIRECTORY_BUILTINS = new Set(['cd', 'pushd', 'popd']);
// Wrappers that run a builtin in the shell itself (any other wrapper runs it in a child, which moves nothing).
const IN_SHELL_WRAPPERS = new Set(['command', 'builtin']);

/**
 * The `cd`, `pushd` or `popd` a simple command runs, behind any wrapper (`command cd x`,
 * `builtin cd x`, `timeout 5 cd x`), or undefined. `inShell` is false when a wrapper other than
 * `command`/`builtin` stands before it (it then runs in a child and the shell stays where it was;
 * callers that cannot tell should treat both places as possible). Pure; never throws.
 */
export function directoryChange(
  argv: readonly ShellWord[],
): { readonly name: string; readonly argv: readonly ShellWord[]; readonly inShell: boolean } | undefined {
  const { runs } = programsOf(argv);
  const index = runs.findIndex(
    (run) =>
      run.argv[0] !== undefined && !run.argv[0].dynamic && DIRECTORY_BUILTINS.has(programName(run.argv[0])),
  );
  if (index < 0) return undefined;
  const run = runs[index] as ProgramRun;
  const inShell = runs
    .slice(0, index)
    .every((outer) => outer.argv[0] !== undefined && IN_SHELL_WRAPPERS.has(programName(outer.argv[0])));
  return { name: programName(run.argv[0] as ShellWord), argv: run.argv, inShell };
}

// `git -c KEY=VALUE` keys that only hold data. Any other key may name a program git runs
// (`alias.x=!cmd`, `core.pager`, `core.sshCommand`, `diff.external`, `filter.*`, `include.path` …).
const GIT_DATA_KEYS =
  /^(user\.(name|email)|color\.[\w.-]+|advice\.[\w-]+|init\.defaultbranch|core\.(quotepath|autocrlf|eol|safecrlf|filemode|ignorecase|longpaths|abbrev)|safe\.directory|protocol\.version|pull\.(rebase|ff)|push\.default|fetch\.prune|column\.ui|status\.showuntrackedfiles|diff\.(renames|algorithm|noprefix|mnemonicprefix)|gc\.auto|maintenance\.auto|commit\.gpgsign=false)(=|$)/i;

/** The first `-c KEY=VALUE` / `--config-env=KEY=VAR` of git's global options whose key is not data-only, or undefined. */
function gitCodeSetting(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (!word.value.startsWith('-')) return undefined; // the subcommand: global options end
    let setting: ShellWord | undefined;
    if (word.value === '-c' || word.value === '--config-env') setting = args[(index += 1)];
    else if (word.value.startsWith('-c') || word.value.startsWith('--config-env='))
      setting = { ...word, value: word.value.replace(/^(-c|--config-env=)/, '') };
    else if (
      /^(-C|--git-dir|--work-tree|--namespace|--super-prefix|--list-cmds|--attr-source)$/.test(word.value)
    )
      index += 1;
    // `--exec-path=DIR`: a subcommand git does not build in runs DIR/git-NAME.
    if (word.value.startsWith('--exec-path=')) return word.value.slice(0, 40);
    if (setting === undefined) continue;
    if (
      setting.dynamic ||
      !GIT_DATA_KEYS.test(setting.value) ||
      (word.value.startsWith('--config-env') && /^commit\.gpgsign/i.test(setting.value))
    )
      return `-c ${setting.value.slice(0, 40)}`;
  }
  return undefined;
}
