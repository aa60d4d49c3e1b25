/**
 * What each program an allow rule may approve reads as code: the files that decide what it runs,
 * as each tool documents it (a package manager's scripts, a Makefile, a test runner's
 * configuration and test files, a build script). One row per program family; code-reads.ts applies
 * the rows to a command line. Paths are relative to the directory the program runs in (`-C DIR`,
 * `--prefix DIR` and a literal `cd DIR` move it).
 */

/** One family of programs and what they read as code. */
export interface CodeReaderRow {
  /** Program names (basenames) the row is about. */
  readonly programs: readonly string[];
  /**
   * Whether this run reads the row's files, from its words after the program (literal values; a
   * dynamic word counts as any value). Absent: every run does.
   */
  readonly when?: (args: readonly string[]) => boolean;
  /** Files in the run's directory. */
  readonly files?: readonly string[];
  /** Files below the run's directory whose path relative to it (with `/`) matches. */
  readonly below?: RegExp;
  /**
   * More that the row computes from the words or the files themselves:
   * `operands`: every word after the program that names a file is run or loaded as code (an
   * interpreter's script and modules); `package-scripts`: the package.json scripts this run may
   * start, read as command lines in their turn; `make-includes`: the files the makefile `include`s;
   * `git-hooks`: the hooks of the repository (`.git/hooks`, `core.hooksPath`), which the policy
   * finds; `python-module`: `-m NAME` runs the program NAME's row; `program-operand`: the first
   * operand (after `exec`, `x` or `dlx`) is a program run with the words after it, read by its own row.
   */
  readonly more?: readonly (
    'operands' | 'package-scripts' | 'make-includes' | 'git-hooks' | 'python-module' | 'program-operand'
  )[];
  /** Options that move the run's directory (`-C DIR`, `--prefix=DIR`): each takes the next word or `=VALUE`. */
  readonly directoryOptions?: readonly string[];
  /** Options that name a file the program reads as code (`make -f FILE`, `pip -r FILE`). */
  readonly fileOptions?: readonly string[];
}

const firstOperand = (args: readonly string[]): string | undefined =>
  args.find((arg) => !arg.startsWith('-'));
const subcommandIn =
  (...names: string[]) =>
  (args: readonly string[]) =>
    names.includes(firstOperand(args) ?? '');

const TEST_FILES = /(^|\/)(__tests__\/.*|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/;
const CONFIG = (base: string) =>
  ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'json'].map((ext) => `${base}.${ext}`);
const PYTHON_PROJECT = ['pyproject.toml', 'setup.py', 'setup.cfg'];

/** The table: every program whose allow rule could run code the model wrote in a file. */
export const CODE_READERS: readonly CodeReaderRow[] = [
  // Package managers run package.json scripts (and their pre/post scripts), the binaries installed
  // under node_modules, and the scripts of workspace packages (`-w`, `-r`, `--filter`): every package.json below.
  {
    programs: ['npm', 'pnpm', 'yarn', 'bun'],
    files: ['package.json'],
    below: /^node_modules\/|(^|\/)package\.json$/,
    more: ['package-scripts', 'program-operand'],
    directoryOptions: ['--prefix', '-C', '--dir', '--cwd'],
  },
  {
    programs: ['npx', 'pnpx', 'bunx'],
    files: ['package.json'],
    below: /^node_modules\//,
    more: ['operands', 'program-operand'],
  },
  // Test runners: their configuration files and the test files they load.
  {
    programs: ['vitest'],
    files: [
      'package.json',
      ...CONFIG('vitest.config'),
      ...CONFIG('vite.config'),
      ...CONFIG('vitest.workspace'),
    ],
    below: TEST_FILES,
    more: ['operands'],
  },
  {
    programs: ['jest'],
    files: ['package.json', ...CONFIG('jest.config'), ...CONFIG('babel.config'), '.babelrc', '.babelrc.js'],
    below: TEST_FILES,
    more: ['operands'],
  },
  {
    programs: ['mocha'],
    files: ['package.json', ...CONFIG('.mocharc'), '.mocharc.yml', '.mocharc.yaml'],
    below: /(^|\/)(test\/.*|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/,
    more: ['operands'],
  },
  {
    programs: ['pytest', 'py.test'],
    files: ['pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml'],
    below: /(^|\/)(conftest\.py|test_[^/]*\.py|[^/]*_test\.py)$/,
    more: ['operands'],
  },
  { programs: ['unittest'], below: /(^|\/)test[^/]*\.py$/, more: ['operands'] },
  { programs: ['tox'], files: ['tox.ini', ...PYTHON_PROJECT] },
  { programs: ['nox'], files: ['noxfile.py'] },
  // Build tools: the files that say what to run.
  {
    programs: ['make', 'gmake', 'bmake'],
    files: ['GNUmakefile', 'makefile', 'Makefile'],
    below: /\.mk$/,
    more: ['make-includes'],
    directoryOptions: ['-C', '--directory'],
    fileOptions: ['-f', '--file', '--makefile'],
  },
  { programs: ['just'], files: ['justfile', 'Justfile', '.justfile'] },
  { programs: ['task'], files: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'] },
  { programs: ['rake'], files: ['Rakefile', 'rakefile'], below: /\.rake$/ },
  { programs: ['bundle'], files: ['Gemfile'] },
  { programs: ['cmake'], below: /(^|\/)(CMakeLists\.txt|[^/]+\.cmake)$/ },
  { programs: ['meson'], below: /(^|\/)meson\.build$/ },
  { programs: ['ninja'], files: ['build.ninja'], directoryOptions: ['-C'], fileOptions: ['-f'] },
  {
    programs: ['gradle', 'gradlew'],
    files: ['gradlew'],
    below: /(^|\/)(buildSrc\/.*|[^/]+\.gradle(\.kts)?)$/,
  },
  { programs: ['mvn', 'mvnw'], files: ['mvnw'], below: /(^|\/)pom\.xml$/ },
  {
    programs: ['cargo'],
    when: (args) => firstOperand(args) !== 'fmt',
    below: /(^|\/)(build\.rs|Cargo\.toml|tests\/[^/]+\.rs|benches\/[^/]+\.rs)$/,
  },
  { programs: ['go'], when: subcommandIn('test'), below: /_test\.go$/ },
  { programs: ['go'], when: subcommandIn('generate'), below: /\.go$/ },
  { programs: ['go'], when: subcommandIn('run'), more: ['operands'] },
  // Python packaging builds the project, running setup.py and the build backend pyproject.toml names.
  {
    programs: ['pip', 'pip3', 'uv', 'poetry', 'pdm', 'hatch', 'build'],
    files: PYTHON_PROJECT,
    more: ['operands'],
    fileOptions: ['-r', '--requirement', '-c', '--constraint'],
  },
  // Interpreters and shells run the script they are given (and the modules their options load).
  {
    programs: [
      'bash',
      'sh',
      'zsh',
      'dash',
      'ksh',
      'fish',
      'source',
      '.',
      'node',
      'deno',
      'tsx',
      'ts-node',
      'python',
      'python3',
      'ruby',
      'perl',
      'php',
      'lua',
      'Rscript',
    ],
    more: ['operands', 'python-module'],
  },
  // Git runs its hooks on commit, merge, rebase, push, checkout and the like.
  {
    programs: ['git'],
    when: (args) =>
      args.some((arg) =>
        [
          'commit',
          'merge',
          'rebase',
          'am',
          'push',
          'checkout',
          'switch',
          'pull',
          'cherry-pick',
          'revert',
        ].includes(arg),
      ),
    more: ['git-hooks'],
  },
];
