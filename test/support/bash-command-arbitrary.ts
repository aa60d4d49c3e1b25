import fc from 'fast-check';
import { READ_ONLY_GIT, READ_ONLY_PROGRAMS, type ProgramFlags } from '../../src/shell/read-only-programs.js';

// A grammar of Bash command lines for the read-only property test: allowlisted and other
// programs, wrappers, every listed flag plus abbreviations, `=` forms, combined short flags and
// flags that write or execute, operands that name fixture files, write targets and payloads,
// quoting of every kind, expansions, globs, braces, tildes, redirections, assignments, compound
// commands and the late-evaluation tricks of Bash (arithmetic, subscripts, `${x@P}`).
// Payloads write `pwn` or start `touch`/`sh`, which the sandbox reports.

const PAYLOAD = 'touch pwn';
// Files inside the case directory, and ways to read outside it (the fixture's outside canary, links to it, /proc).
const FILES = [
  'file',
  'f',
  'a',
  'b',
  'notes.txt',
  'src',
  'src/x.ts',
  'data.json',
  '.',
  '..',
  'missing',
  '/etc/hostname',
  '-',
  '../outside/canary.txt',
  '/tmp/outside/canary.txt',
  'link-out',
  'docs',
  'docs/out-dir',
  '/proc/self/environ',
  '../outside',
];
const WRITE_TARGETS = ['out.txt', 'pwn', '/tmp/pwn', '../pwn', '/tmp/home/pwn'];
const EXECUTABLES = ['sh', 'bash', 'touch', '/bin/sh', './pwn.sh', 'sh -c "touch pwn"'];
const VALUES = [
  '1',
  '5',
  '0',
  '+%Y',
  'foo',
  'x',
  '%h %s',
  'HEAD',
  'HEAD~1',
  'always',
  'never',
  ',',
  ':',
  'auto',
  '2',
  ...FILES,
  ...WRITE_TARGETS,
  ...EXECUTABLES,
];
const EVALUATED = [`a[$(${PAYLOAD})]`, `$(${PAYLOAD})`, `\`${PAYLOAD}\``, 'a[`touch pwn`]', '$((1))', '${x}'];

/** Flags that write, execute or are spelled wrongly, tried on every program. */
export const HOSTILE_FLAGS = [
  '-o',
  '--output',
  '--output=pwn',
  '--o=pwn',
  '--outp=pwn',
  '--compress-program=sh',
  '--compress-prog=sh',
  '-T',
  '--temporary-directory=.',
  '-exec',
  '-execdir',
  '-ok',
  '-delete',
  '-fprint',
  '-fprintf',
  '-fls',
  '-S',
  "-S'touch pwn'",
  '--split-string=touch pwn',
  '-v',
  '--to-command=sh',
  '--date=now',
  '--set=now',
  '--pre=./pwn.sh',
  '--pre',
  '-O',
  '--open-files-in-pager=touch pwn',
  '--open=touch pwn',
  '--ext-diff',
  '-c',
  'core.pager=touch pwn',
  '-C',
  '--git-dir=.',
  '--exec-path=.',
  '-p',
  '--paginate',
  '-i',
  '--in-place',
  '--files0-from=f',
  '-r',
  '-e',
  '-f',
  '-w',
  '-x',
  '-z',
  '--hostname-bin=touch',
  '--search-zip',
  '-P',
  '--',
  '-d',
  '-s',
  '-u',
  '-n',
  '-t',
];

const OTHER_PROGRAMS = [
  'sh',
  'bash',
  'touch',
  'rm',
  'env',
  'xargs',
  'sed',
  'awk',
  'tee',
  'dd',
  'cp',
  'mv',
  'install',
  'chmod',
  'nohup',
  'setsid',
  'stdbuf',
  'exec',
  'eval',
  'source',
  '.',
  'builtin',
  'declare',
  'let',
  'read',
  'mapfile',
  'export',
  'trap',
  'umask',
  'shopt',
  'set',
  'hash',
  'printenv',
  'mkdir',
  'ln',
  'python3',
  'node',
  'perl',
  'time',
  'sudo',
  'xxd',
  'less',
  'man',
  'vi',
  'git',
];
const WRAPPERS = [
  'timeout 2',
  'timeout -s KILL 2',
  'nice',
  'nice -n 5',
  'command',
  'command -p',
  'env',
  'env -i',
  'xargs',
  'xargs -a f',
  'time',
  'nohup',
  'stdbuf -o0',
  'setsid',
  'builtin',
  'exec',
  'sudo',
  'env -S',
  'timeout --sig=KILL 2',
];

/** The spellings of a program's listed flags (`valid`) and near misses (abbreviations, values where none belongs). */
function spellings(spec: ProgramFlags): { valid: string[]; mutated: string[] } {
  const words = (list: string | undefined) => (list ?? '').split(' ').filter(Boolean);
  const valid: string[] = [];
  const mutated: string[] = [];
  for (const letter of spec.short ?? '') valid.push(`-${letter}`);
  for (const letter of spec.shortValue ?? '') {
    valid.push(`-${letter}1`, `-${letter} 5`);
    mutated.push(`-${letter} pwn`, `-${letter}`);
  }
  for (const flag of words(spec.long)) {
    valid.push(flag);
    mutated.push(`${flag}=x`, flag.slice(0, Math.max(3, flag.length - 2)));
  }
  for (const flag of words(spec.longValue)) {
    valid.push(`${flag}=1`, `${flag} 1`);
    mutated.push(`${flag}=pwn`, `${flag.slice(0, Math.max(3, flag.length - 3))}=pwn`);
  }
  for (const flag of words(spec.longOptional)) {
    valid.push(flag, `${flag}=always`);
    mutated.push(`${flag} always`);
  }
  if (spec.short && spec.short.length > 1)
    valid.push(`-${spec.short.slice(0, 2)}`, `-${spec.short.slice(-2)}`);
  if (spec.short && spec.shortValue) valid.push(`-${spec.short[0] ?? ''}${spec.shortValue[0] ?? ''}1`);
  if (spec.numeric) valid.push('-3');
  return { valid, mutated };
}

const quoted = (word: string) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(word, `'${word}'`, `"${word}"`, word.replace(/(.)/, '\\$1'), `"${word}"''`),
    },
    { weight: 1, arbitrary: fc.constant(`$'${word}'`) },
  );
const expansion = fc.constantFrom(
  '$x',
  '${x}',
  `$(${PAYLOAD})`,
  `\`${PAYLOAD}\``,
  '$((x))',
  '${a[x]}',
  '${!x}',
  '${x@P}',
  `<(${PAYLOAD})`,
  '*',
  '?',
  '[ab]',
  '{a,b}',
  '~',
  '~/x',
  'a=~',
  '$HOME',
  '$ANTHROPIC_API_KEY',
  '"$x"',
  `'$(${PAYLOAD})'`,
  "'a$'",
  "'$x'",
  '\\\r#',
  '\r',
);

/** One argument word: mostly literal, sometimes an expansion or a payload. */
const operand = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom(...VALUES).chain(quoted) },
  { weight: 1, arbitrary: expansion },
  { weight: 1, arbitrary: fc.constantFrom(...EVALUATED).map((word) => `'${word}'`) },
);

function programCommand(name: string, spec: ProgramFlags): fc.Arbitrary<string> {
  const { valid, mutated } = spellings(spec);
  const flag = fc.oneof(
    { weight: 10, arbitrary: valid.length > 0 ? fc.constantFrom(...valid) : fc.constant('--') },
    { weight: 2, arbitrary: mutated.length > 0 ? fc.constantFrom(...mutated) : fc.constant('--x') },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_FLAGS) },
  );
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: flag }, { weight: 2, arbitrary: operand }), { maxLength: 3 })
    .map((args) => [name, ...args].join(' '));
}

export const externalPrograms = (usable: ReadonlySet<string>) =>
  Object.entries(READ_ONLY_PROGRAMS).filter(
    ([name]) =>
      usable.has(name) ||
      !/^[a-z]/.test(name) ||
      ['echo', 'printf', 'pwd', 'cd', 'true', 'false', 'test', 'type'].includes(name),
  );

/** A simple command: an allowlisted program (with git subcommands), or another one, maybe wrapped. */
function simpleCommand(usable: ReadonlySet<string>): fc.Arbitrary<string> {
  const allowed = externalPrograms(usable).map(([name, spec]) => programCommand(name, spec));
  const git = Object.entries(READ_ONLY_GIT).map(([sub, spec]) => programCommand(`git ${sub}`, spec));
  const gitGlobal = fc
    .tuple(
      fc.constantFrom(
        'git --no-pager',
        'git -P',
        'git -C .',
        'git -c core.pager=sh',
        'git --git-dir=.git',
        'git -p',
        'git --exec-path=.',
      ),
      fc.constantFrom(...Object.keys(READ_ONLY_GIT)),
    )
    .map(([head, sub]) => `${head} ${sub}`);
  const other = fc
    .tuple(
      fc.constantFrom(...OTHER_PROGRAMS),
      fc.array(fc.oneof(operand, fc.constantFrom(...HOSTILE_FLAGS)), { maxLength: 3 }),
    )
    .map(([name, args]) => [name, ...args].join(' '));
  const base = fc.oneof(
    { weight: 12, arbitrary: fc.oneof(...allowed) },
    { weight: 6, arbitrary: fc.oneof(...git) },
    { weight: 1, arbitrary: gitGlobal },
    { weight: 2, arbitrary: other },
  );
  const assignment = fc.constantFrom(
    'LC_ALL=C ',
    'TZ=UTC ',
    "x='a[$(touch pwn)]' ",
    'PAGER=sh ',
    'GIT_PAGER=sh ',
    'PATH=. ',
    'LANG="C" ',
    'x=$(touch pwn) ',
    'BASH_ENV=pwn.sh ',
  );
  const redirect = fc.constantFrom(
    ' >/dev/null',
    ' 2>/dev/null',
    ' 2>&1',
    ' >out.txt',
    ' < f',
    ' >>pwn',
    ' &>/dev/null',
    ' <<< x',
    ' >&2',
    ' 1>&-',
    ' >/tmp/pwn',
    ' </dev/tcp/127.0.0.1/1',
    ' >|pwn',
    ' 2>pwn',
  );
  return fc
    .tuple(
      sometimes(assignment, 12),
      sometimes(fc.constantFrom(...WRAPPERS), 8),
      base,
      sometimes(redirect, 4),
    )
    .map(
      ([assign, wrapper, command, redirection]) =>
        `${assign ?? ''}${wrapper ? `${wrapper} ` : ''}${command}${redirection ?? ''}`,
    );
}

/** `arbitrary` once in `every` cases, else null. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** Compound forms and Bash's late evaluation around a simple command. */
const compound = (inner: string) =>
  fc.oneof({ weight: 20, arbitrary: fc.constant(inner) }, { weight: 3, arbitrary: hostileCompound(inner) });

const hostileCompound = (inner: string) =>
  fc.constantFrom(
    `(${inner})`,
    `{ ${inner}; }`,
    `if true; then ${inner}; fi`,
    `for i in 1; do ${inner}; done`,
    `f() { ${inner}; }; f`,
    `x='a[$(${PAYLOAD})]'; (( x )); ${inner}`,
    `x='a[$(${PAYLOAD})]'; [[ $x -eq 0 ]] && ${inner}`,
    `x='$(${PAYLOAD})'; echo \${x@P}`,
    `for ((i=0; i<1; i++)); do ${inner}; done`,
    `${inner} &`,
    `! ${inner}`,
    `[[ -f f ]] && ${inner}`,
    `${inner} <<EOF\n$(${PAYLOAD})\nEOF`,
    `echo $(${inner})`,
    `cd .. && ${inner}`,
    `cd /tmp/outside; ${inner}`,
    `cd docs/out-dir && ${inner}`,
    `cd docs && ${inner}`,
  );

/**
 * Command lines of one to three commands joined by `|`, `&&`, `||`, `;`, newlines or `&`.
 * `usable`: programs that exist in the sandbox (others are left out of the allowlisted part).
 */
export function bashCommandLine(usable: ReadonlySet<string>): fc.Arbitrary<string> {
  const command = simpleCommand(usable).chain(compound);
  const joiner = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(' | ', ' && ', ' || ', '; ', '\n', ' |& ') },
    { weight: 1, arbitrary: fc.constantFrom(' & ', ' ;; ', ' | ', '&&\n') },
  );
  const line = fc
    .tuple(command, fc.array(fc.tuple(joiner, command), { maxLength: 2 }))
    .map(([first, rest]) => first + rest.map(([join, next]) => join + next).join(''));
  return fc.oneof({ weight: 3, arbitrary: line }, { weight: 1, arbitrary: focused(usable) });
}

/** One allowlisted program with one near-miss or hostile flag among plain words: where a gap in the flag table would show. */
function focused(usable: ReadonlySet<string>): fc.Arbitrary<string> {
  const programs = [
    ...externalPrograms(usable).map(([name, spec]) => [name, spec] as const),
    ...Object.entries(READ_ONLY_GIT).map(([sub, spec]) => [`git ${sub}`, spec] as const),
  ];
  return fc.constantFrom(...programs).chain(([name, spec]) => {
    const { valid, mutated } = spellings(spec);
    const plain = fc.constantFrom(...valid, 'f', 'file', 'pwn', 'out.txt', '.', 'sh', 'HEAD');
    return fc
      .tuple(
        fc.array(plain, { maxLength: 2 }),
        fc.constantFrom(...mutated, ...HOSTILE_FLAGS),
        fc.array(plain, { maxLength: 2 }),
      )
      .map(([before, odd, after]) => [name, ...before, odd, ...after].join(' '));
  });
}
