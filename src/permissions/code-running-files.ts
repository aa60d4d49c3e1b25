import fs from 'node:fs';
import path from 'node:path';

/**
 * Files that make a program the user allows run code the file names, later, without anyone seeing
 * the command: a package manager's configuration (`.npmrc` `script-shell`, `.yarnrc.yml`
 * `yarnPath`, `bunfig.toml` preloads, `.pnpmfile.cjs`, `pip.conf` indexes), shell start-up files,
 * git's hooks and the directory `core.hooksPath` names (husky's `.husky/`), direnv's `.envrc`,
 * pre-commit and lefthook configuration, build wrappers (`gradle-wrapper.properties`), editor and
 * container task files (`.vscode/`, `.idea/`, `.devcontainer/`). Each entry is there because the
 * tool that reads it documents that it runs a program, a shell or a script named in it; Claude
 * Code 2.1.328 treats the same names as sensitive (plus `pip.conf` and `pnpm-workspace.yaml`,
 * which hookloop adds).
 *
 * Not here, on purpose: `package.json` scripts, `Makefile`, `pyproject.toml` — an allowed
 * `npm test`/`make` runs them, but they are ordinary project files the model edits all day.
 */

/** File names that run code wherever they are (compared case-folded). */
export const CODE_RUNNING_FILE_NAMES: readonly string[] = [
  // shells
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  'config.fish',
  // git and search tools
  '.gitconfig',
  '.gitmodules',
  '.ripgreprc',
  // package managers: scripts' shell, a yarn binary, preloads, install hooks, indexes
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnp.cjs',
  '.pnp.loader.mjs',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
  'bunfig.toml',
  '.bunfig.toml',
  'pip.conf',
  'pip.ini',
  // environment loaders and hook managers
  '.envrc',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  // build tool wrappers and settings
  '.bazelrc',
  '.bazelversion',
  '.bazeliskrc',
  'gradle-wrapper.properties',
  'maven-wrapper.properties',
  // editors and containers
  '.devcontainer.json',
  'pyrightconfig.json',
];

/** Directory names whose every file runs code or configures a program that does (compared case-folded). */
export const CODE_RUNNING_DIRECTORY_NAMES: readonly string[] = [
  '.husky',
  '.vscode',
  '.idea',
  '.cargo',
  '.devcontainer',
  '.yarn',
  '.mvn',
  '.pip',
];

const FILE_NAMES = new Set(CODE_RUNNING_FILE_NAMES);
const DIRECTORY_NAMES = new Set(CODE_RUNNING_DIRECTORY_NAMES);

/**
 * Whether the path parts `folded` (already case-folded, see protected-paths.ts) name a file of
 * the lists above: a code-running file name as the last part, or any part a code-running
 * directory, or the pair `.config/pip`. Returns how many leading parts make the protected entry
 * (to show it), or undefined.
 */
export function codeRunningEntry(folded: readonly string[]): number | undefined {
  for (let index = 0; index < folded.length; index += 1) {
    const part = folded[index] as string;
    if (DIRECTORY_NAMES.has(part)) return index + 1;
    if (part === '.config' && folded[index + 1] === 'pip') return index + 2;
  }
  const last = folded.at(-1);
  return last !== undefined && FILE_NAMES.has(last) ? folded.length : undefined;
}

/**
 * The directories git runs hooks from besides `.git/hooks`: every `core.hooksPath` set in the
 * repositories' own configuration (`<root>/.git/config`) and in the user's and the system's
 * (`~/.gitconfig`, `~/.config/git/config`, `$XDG_CONFIG_HOME/git/config`, `/etc/gitconfig`). A
 * relative value is where git reads it, the top of the working tree: resolved against each root.
 * Read on every call (husky sets it during `npm install`). `include.path` files are not followed.
 * Never throws.
 */
export function gitHooksDirectories(roots: readonly string[], homeDir: string): string[] {
  const shared = [
    path.join(homeDir, '.gitconfig'),
    path.join(homeDir, '.config', 'git', 'config'),
    '/etc/gitconfig',
  ];
  const xdg = process.env['XDG_CONFIG_HOME'];
  if (xdg) shared.push(path.join(xdg, 'git', 'config'));
  const found = new Set<string>();
  const add = (value: string, root: string) => {
    const expanded = value === '~' || value.startsWith('~/') ? path.join(homeDir, value.slice(1)) : value;
    found.add(path.resolve(root, expanded));
  };
  for (const root of roots) {
    for (const file of [path.join(root, '.git', 'config'), ...shared]) {
      for (const value of hooksPathValues(file)) add(value, root);
    }
  }
  return [...found];
}

/** The `core.hooksPath` values of one git config file (section and key case-insensitive; quotes dropped). */
function hooksPathValues(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const values: string[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)/.exec(line);
    if (header) {
      section = (header[1] as string).toLowerCase();
      // `[core] hooksPath = x` on one line is valid git syntax too.
      const rest = line.slice(line.indexOf(']') + 1).trim();
      if (section === 'core') values.push(...keyValue(rest));
      continue;
    }
    if (section === 'core') values.push(...keyValue(line));
  }
  return values;
}

function keyValue(line: string): string[] {
  const match = /^hookspath\s*=\s*(.*)$/i.exec(line);
  if (!match) return [];
  const value = (match[1] as string)
    .replace(/\s[#;].*$/, '')
    .trim()
    .replace(/^"(.*)"$/, '$1');
  return value === '' ? [] : [value];
}
