import type { ShellWord, WrittenWord } from './bash-types.js';

// git's own options that take the next word as their value (`git -C dir config …`).
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
]);
// `git config` forms that only read.
const READ_FORMS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
  'get',
  'list',
]);
// `git config` forms that write (beside `git config NAME VALUE`).
const WRITE_FORMS = new Set([
  '--add',
  '--unset',
  '--unset-all',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '-e',
  '--edit',
  'set',
  'unset',
  'rename-section',
  'remove-section',
  'edit',
]);

/**
 * What `git config` writes: git's configuration, which names programs that later read-only git
 * commands run (`core.fsmonitor`, `core.pager`, `diff.external`, filter drivers, `core.hooksPath`).
 * The file: `--global` → `~/.gitconfig`, `--system` → `/etc/gitconfig`, `-f`/`--file FILE` → FILE,
 * otherwise the repository's `.git/config` (below `-C DIR`; unknown behind `--git-dir`). Undefined
 * for any other git subcommand, and for the forms that only read (`--get`, `--list`, `git config
 * NAME`). Pure; never throws.
 */
export function gitConfigWrites(
  args: readonly ShellWord[],
): { written: WrittenWord[]; notPlain: string } | undefined {
  let index = 0;
  let directory: ShellWord | undefined;
  let unknownPlace = false;
  for (; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    if (!word.value.startsWith('-')) break;
    const name = word.value.replace(/=.*$/s, '');
    if (name === '--git-dir' || name === '--work-tree') unknownPlace = true;
    if (GIT_VALUE_OPTIONS.has(word.value)) {
      if (word.value === '-C') directory = args[index + 1];
      index += 1;
    }
  }
  const subcommand = args[index]?.value;
  const place = (file: string): { written: WrittenWord[]; notPlain: string } => {
    const notPlain = `git ${subcommand ?? ''} writes git configuration`;
    if (unknownPlace || directory?.dynamic || file === '<unknown>')
      return { written: [{ word: undefined }], notPlain };
    const config = file.startsWith('~')
      ? file
      : directory
        ? `${directory.value.replace(/\/+$/, '')}/${file}`
        : file;
    return { written: [{ word: { value: config, source: config, dynamic: false } }], notPlain };
  };
  if (subcommand !== undefined && subcommand !== 'config') {
    const writer = CONFIG_WRITERS[subcommand];
    const rest = args.slice(index + 1).map((word) => word.value);
    const file = writer?.(rest);
    return file === undefined ? undefined : place(file);
  }
  if (subcommand !== 'config') return undefined;
  const rest = args.slice(index + 1);
  const values = rest.map((word) => word.value);
  if (values.some((value) => READ_FORMS.has(value))) return undefined;
  const positional = values.filter((value) => !value.startsWith('-'));
  if (!values.some((value) => WRITE_FORMS.has(value)) && positional.length < 2) return undefined;
  const notPlain = 'git config writes git configuration';
  const fileAt = values.findIndex(
    (value) => value === '-f' || value === '--file' || value.startsWith('--file='),
  );
  if (fileAt >= 0) {
    const option = rest[fileAt] as ShellWord;
    const file = option.value.startsWith('--file=')
      ? { ...option, value: option.value.slice('--file='.length) }
      : rest[fileAt + 1];
    return { written: [{ word: file }], notPlain };
  }
  if (values.includes('--global'))
    return {
      written: [{ word: { value: '~/.gitconfig', source: '~/.gitconfig', dynamic: false } }],
      notPlain,
    };
  if (values.includes('--system'))
    return {
      written: [{ word: { value: '/etc/gitconfig', source: '/etc/gitconfig', dynamic: false } }],
      notPlain,
    };
  if (unknownPlace || directory?.dynamic) return { written: [{ word: undefined }], notPlain };
  const config = directory ? `${directory.value.replace(/\/+$/, '')}/.git/config` : '.git/config';
  return { written: [{ word: { value: config, source: config, dynamic: false } }], notPlain };
}

const UPSTREAM =
  /^(-u|-t|--set-upstream|--set-upstream-to(=.*)?|--unset-upstream|--track(=.*)?|-[a-z]*[uU][a-z]*)$/;
const firstOperand = (rest: readonly string[]): string | undefined =>
  rest.find((value) => !value.startsWith('-'));

/**
 * git subcommands other than `git config` that write git's configuration, with the forms that do:
 * the file they write (`.git/config`; `~/.gitconfig` for `maintenance`), or undefined. Listed by
 * subcommand, failing closed within each (`git remote` with any operand but `-v`, `show`, `get-url`).
 */
const CONFIG_WRITERS: Readonly<Record<string, (rest: readonly string[]) => string | undefined>> = {
  remote: (rest) =>
    ['add', 'rename', 'remove', 'rm', 'set-url', 'set-branches', 'set-head', 'update', 'prune'].includes(
      firstOperand(rest) ?? '',
    ) ||
    (firstOperand(rest) !== undefined && !['show', 'get-url'].includes(firstOperand(rest) ?? ''))
      ? '.git/config'
      : undefined,
  submodule: (rest) =>
    firstOperand(rest) === undefined || ['status', 'summary', 'foreach'].includes(firstOperand(rest) ?? '')
      ? undefined
      : '.git/config',
  branch: (rest) =>
    rest.some((value) => UPSTREAM.test(value) || /^(-[mMcC]|--move|--copy|--edit-description)$/.test(value))
      ? '.git/config'
      : undefined,
  checkout: (rest) => (rest.some((value) => /^(-t|--track(=.*)?)$/.test(value)) ? '.git/config' : undefined),
  switch: (rest) => (rest.some((value) => /^(-t|--track(=.*)?)$/.test(value)) ? '.git/config' : undefined),
  push: (rest) =>
    rest.some((value) => /^(-u|--set-upstream|-[a-zA-Z]*u[a-zA-Z]*)$/.test(value))
      ? '.git/config'
      : undefined,
  fetch: (rest) => (rest.includes('--set-upstream') ? '.git/config' : undefined),
  pull: (rest) => (rest.includes('--set-upstream') ? '.git/config' : undefined),
  'sparse-checkout': (rest) => (firstOperand(rest) === 'list' ? undefined : '.git/config'),
  worktree: (rest) => (['list'].includes(firstOperand(rest) ?? 'list') ? undefined : '.git/config'),
  // A new repository gets the default configuration and hooks, unless the command names others.
  init: (rest) =>
    rest.some((value) => /^--(template|separate-git-dir)/.test(value)) ? '.git/config' : undefined,
  clone: (rest) =>
    rest.some((value) => /^(-c|--config|--template|--separate-git-dir)/.test(value))
      ? '<unknown>'
      : undefined,
  lfs: (rest) =>
    ['install', 'uninstall', 'track', 'untrack', 'update'].includes(firstOperand(rest) ?? '')
      ? '.git/config'
      : undefined,
  maintenance: (rest) =>
    ['register', 'unregister', 'start', 'stop'].includes(firstOperand(rest) ?? '')
      ? '~/.gitconfig'
      : undefined,
  flow: () => '.git/config',
};
