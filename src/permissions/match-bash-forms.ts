import { programName, type ShellWord } from '../shell/index.js';

/**
 * More ways a deny or ask rule may see one program run, so that it names the subcommand as the
 * program will read it, not only as the words are written:
 * - **global options before the subcommand** are dropped (`git -C . push`, `git -c k=v push`,
 *   `git --no-pager push` are `git push`; `npm --prefix x publish`, `docker -H h run`,
 *   `kubectl -n ns delete`), from a table of each program's options that take a value; an option
 *   the table does not know is read both ways (with and without a value), since a deny rule
 *   matching more is the safe side;
 * - **long options given as a prefix** (`--har`, which git's option parser reads as `--hard`) are
 *   read as every long option of the rule they begin.
 * Only for rules that match when any part matches (deny, ask, hook `if`): an allow rule is never
 * widened by these forms.
 */

interface GlobalOptions {
  /** Options that take the next word as their value (unless given as `--name=value` or, for one letter, attached). */
  readonly valued: ReadonlySet<string>;
  /** Options known to take no value. */
  readonly flags: ReadonlySet<string>;
}

const GLOBAL_OPTIONS: Readonly<Record<string, GlobalOptions>> = {
  git: {
    valued: new Set([
      '-C',
      '-c',
      '--git-dir',
      '--work-tree',
      '--namespace',
      '--config-env',
      '--super-prefix',
      '--attr-source',
      '--list-cmds',
    ]),
    flags: new Set([
      '-p',
      '-P',
      '--paginate',
      '--no-pager',
      '--no-replace-objects',
      '--no-lazy-fetch',
      '--no-optional-locks',
      '--no-advice',
      '--bare',
      '--literal-pathspecs',
      '--glob-pathspecs',
      '--noglob-pathspecs',
      '--icase-pathspecs',
      '--exec-path',
      '--html-path',
      '--man-path',
      '--info-path',
    ]),
  },
  npm: {
    valued: new Set([
      '--prefix',
      '-C',
      '--workspace',
      '-w',
      '--registry',
      '--userconfig',
      '--globalconfig',
      '--cache',
      '--loglevel',
    ]),
    flags: new Set([
      '-g',
      '--global',
      '-s',
      '--silent',
      '-q',
      '--quiet',
      '-d',
      '--verbose',
      '-ws',
      '--workspaces',
      '--yes',
      '-y',
      '--force',
      '-f',
    ]),
  },
  pnpm: {
    valued: new Set(['-C', '--dir', '--filter', '-F', '--workspace-dir']),
    flags: new Set(['-r', '--recursive', '-w', '--workspace-root', '-s', '--silent', '-g', '--global']),
  },
  yarn: { valued: new Set(['--cwd']), flags: new Set(['-s', '--silent', '--verbose']) },
  docker: {
    valued: new Set([
      '-H',
      '--host',
      '-c',
      '--context',
      '--config',
      '-l',
      '--log-level',
      '--tlscacert',
      '--tlscert',
      '--tlskey',
    ]),
    flags: new Set(['-D', '--debug', '--tls', '--tlsverify']),
  },
  kubectl: {
    valued: new Set([
      '-n',
      '--namespace',
      '--context',
      '--cluster',
      '--kubeconfig',
      '--user',
      '-s',
      '--server',
      '--token',
      '--as',
      '--as-group',
      '-v',
      '--v',
      '--request-timeout',
      '-l',
      '--selector',
    ]),
    flags: new Set(['-A', '--all-namespaces', '--insecure-skip-tls-verify']),
  },
  cargo: {
    valued: new Set(['-C', '--config', '-Z', '--color']),
    flags: new Set(['-v', '-vv', '--verbose', '-q', '--quiet', '--frozen', '--locked', '--offline']),
  },
};

// Branches tried per run when options are read both ways; past it, the forms stop growing (the plain words still count).
const MAX_FORMS = 16;

/** The program run's words with its global options dropped, every reading of them (see the file comment); the first is the words unchanged. */
export function globalOptionForms(argv: readonly ShellWord[]): ShellWord[][] {
  const program = argv[0];
  const table = program === undefined || program.dynamic ? undefined : GLOBAL_OPTIONS[programName(program)];
  if (program === undefined || table === undefined) return [[...argv]];
  const forms: ShellWord[][] = [[...argv]];
  const walk = (index: number) => {
    if (forms.length >= MAX_FORMS) return;
    const word = argv[index];
    if (word === undefined) return;
    if (!word.value.startsWith('-') || word.value === '-') {
      if (index > 1) forms.push([program, ...argv.slice(index)]);
      return;
    }
    if (word.value === '--') {
      forms.push([program, ...argv.slice(index + 1)]);
      return;
    }
    const name = word.value.includes('=') ? word.value.slice(0, word.value.indexOf('=')) : word.value;
    const attached =
      word.value.includes('=') ||
      (/^-[A-Za-z]./.test(word.value) && table.valued.has(word.value.slice(0, 2)));
    if (attached) return walk(index + 1);
    if (table.valued.has(name)) return walk(index + 2);
    if (table.flags.has(name)) return walk(index + 1);
    walk(index + 1);
    walk(index + 2);
  };
  walk(1);
  return forms;
}

/**
 * `text` with each long option that is a proper prefix of a long option word of `specifier`
 * replaced by that word (`git reset --har` against `git reset --hard:*` → `git reset --hard`), in
 * every combination when several fit; `text` itself first. A value after `=` is kept.
 */
export function expandedAbbreviations(text: string, specifier: string): string[] {
  const longOptions = [
    ...new Set(specifier.split(/[\s:=*]+/).filter((word) => /^--[A-Za-z0-9][\w-]*$/.test(word))),
  ];
  if (longOptions.length === 0) return [text];
  let forms = [''];
  for (const [index, word] of text.split(' ').entries()) {
    const separator = index === 0 ? '' : ' ';
    const equals = word.indexOf('=');
    const [name, rest] = equals === -1 ? [word, ''] : [word.slice(0, equals), word.slice(equals)];
    const readings = /^--[A-Za-z0-9][\w-]*$/.test(name)
      ? [name, ...longOptions.filter((option) => option.length > name.length && option.startsWith(name))]
      : [name];
    forms = forms
      .flatMap((form) => readings.map((reading) => `${form}${separator}${reading}${rest}`))
      .slice(0, MAX_FORMS);
  }
  return [text, ...forms.filter((form) => form !== text)];
}
