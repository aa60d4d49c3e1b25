import fs from 'node:fs';
import path from 'node:path';
import { isSameOrInside, realpathLoose } from '../tools/workspace.js';
import { configuresAgent } from './agent-configuration.js';
import { codeRunningEntry, gitHooksDirectories } from './code-running-files.js';
import type { PermissionVerdict } from './types.js';

/**
 * The paths no rule, mode or hook may let the model write, only a person.
 *
 * - `configuration`: where hookloop reads hooks, permissions, plugins, MCP servers, subagents,
 *   skills and commands from — in a `.claude/` folder anywhere (those of the project and of every
 *   workspace root among them) the entries that configure an agent (`configuresAgent`: settings,
 *   hooks, agents, commands, plugins, skills' SKILL.md …, not a skill's notes), a `.mcp.json` file
 *   anywhere, the user's whole `~/.claude/` and `~/.claude.json`, and every file or directory the
 *   run names in `RunOptions.configurationFiles` (the config folder, `--settings` files,
 *   `--plugin-dir` directories). A model that could write them would choose its own hooks (hot
 *   reload applies them mid-session) or its own allow rules.
 * - `git`: files that make later read-only git commands run code: anything in a `.git` directory
 *   or named `.git` (config: `core.fsmonitor`, `core.pager`, diff and filter drivers; hooks; a
 *   `.git` file pointing at another git directory), `.gitattributes`, `.gitmodules`, `.gitconfig`,
 *   and the user's `~/.config/git/` (`$XDG_CONFIG_HOME/git/`).
 * - `code`: files that make an allowed program run code later (code-running-files.ts): package
 *   manager configuration, shell start-up files, `.husky/` and every directory `core.hooksPath`
 *   names, editor and container task folders.
 *
 * Matching is by real path: the written path and every protected entry are resolved with
 * {@link realpathLoose} (symlinks, dangling links and symlinked aliases of the workspace followed),
 * and each is also compared as written (normalized), so a link that replaces a protected entry
 * later is caught too. A write to a directory that holds a protected entry (`cp -r x .`,
 * `mv .claude y`) counts as a write to the entry, except for the file tools, which cannot replace
 * a directory.
 */
export interface ProtectedPathsOptions {
  readonly projectDir: string;
  readonly homeDir: string;
  /** The workspace roots (`--add-dir`): each one's `.claude/` is configuration, its `.git` an entry for the directory rule above. */
  readonly roots?: readonly string[];
  /** More files or directories to protect (absolute, or relative to `projectDir`). */
  readonly files?: readonly string[];
}

/** A protected path a write reaches: the entry's path as shown to the user, and which kind it is. */
export interface ProtectedHit {
  readonly path: string;
  readonly kind: 'configuration' | 'git' | 'code';
}

const GIT_FILES = new Set(['.gitattributes', '.gitmodules', '.gitconfig']);
// Git's system configuration, and the global one when the environment names another file.
const SYSTEM_GIT_CONFIG = [
  '/etc/gitconfig',
  ...[process.env['GIT_CONFIG_GLOBAL'], process.env['GIT_CONFIG_SYSTEM']].filter(
    (file): file is string => file !== undefined && file !== '' && file !== '/dev/null',
  ),
];

/** See {@link ProtectedPathsOptions}. Built once per run; entries are resolved on every check (a link may appear later). */
export class ProtectedPaths {
  private readonly configuration: readonly string[];
  /** Each root's `.claude/`: only the entries that configure an agent are protected (see `configuresAgent`). */
  private readonly agentFolders: readonly string[];
  private readonly gitDirectories: readonly string[];
  private readonly gitConfiguration: readonly string[];
  private readonly roots: readonly string[];
  private readonly homeDir: string;

  constructor(options: ProtectedPathsOptions) {
    const projectDir = path.resolve(options.projectDir);
    const roots = [projectDir, ...(options.roots ?? [])];
    this.roots = roots;
    this.homeDir = options.homeDir;
    this.agentFolders = roots.map((root) => path.join(root, '.claude'));
    this.configuration = [
      path.join(projectDir, '.mcp.json'),
      path.join(options.homeDir, '.claude'),
      path.join(options.homeDir, '.claude.json'),
      ...(options.files ?? []).map((file) => path.resolve(projectDir, file)),
    ];
    this.gitDirectories = roots.map((root) => path.join(root, '.git'));
    this.gitConfiguration = [
      path.join(options.homeDir, '.config', 'git'),
      ...(process.env['XDG_CONFIG_HOME'] ? [path.join(process.env['XDG_CONFIG_HOME'], 'git')] : []),
      ...SYSTEM_GIT_CONFIG,
    ];
  }

  /**
   * The protected entry that writing `file` (absolute) would change, or undefined. `replacesDirectories`:
   * the writer can replace or fill a whole directory (Bash `cp -r`, `mv`, `rm`), so writing an
   * ancestor of an entry counts. `byInode: false`: skip the hard-link comparison (for paths a
   * command's words merely mention; default true).
   */
  hit(
    file: string,
    options: { readonly replacesDirectories: boolean; readonly byInode?: boolean },
  ): ProtectedHit | undefined {
    const written = candidates(file);
    // A root's `.claude/` also where it really lies (it may be a link to another folder).
    for (const folder of this.agentFolders) {
      for (const entry of candidates(folder)) {
        for (const candidate of written) {
          if (options.replacesDirectories && isSameOrInside(foldPath(entry), foldPath(candidate)))
            return { path: folder, kind: 'configuration' };
          if (!isSameOrInside(foldPath(candidate), foldPath(entry))) continue;
          const below = path
            .relative(foldPath(entry), foldPath(candidate))
            .split(path.sep)
            .filter((part) => part !== '');
          if (configuresAgent(below, options.replacesDirectories))
            return { path: below.length === 0 ? folder : candidate, kind: 'configuration' };
        }
      }
    }
    for (const entry of this.configuration) {
      const entries = candidates(entry);
      if (
        written.some((candidate) =>
          entries.some((protectedPath) => touches(candidate, protectedPath, options.replacesDirectories)),
        )
      )
        return { path: entry, kind: 'configuration' };
    }
    for (const candidate of written) {
      const parts = candidate.split(path.sep);
      const folded = parts.map(foldName);
      // A `.claude` folder anywhere: the project settings of a session started there.
      const claudeAt = folded.indexOf('.claude');
      if (claudeAt >= 0 && configuresAgent(folded.slice(claudeAt + 1), options.replacesDirectories))
        return { path: parts.slice(0, claudeAt + 1).join(path.sep), kind: 'configuration' };
      // So is a `.mcp.json` anywhere: the MCP servers (programs) of a session started beside it.
      if (foldName(path.basename(candidate)) === '.mcp.json')
        return { path: candidate, kind: 'configuration' };
      const gitAt = folded.indexOf('.git');
      if (gitAt >= 0) return { path: parts.slice(0, gitAt + 1).join(path.sep), kind: 'git' };
      if (GIT_FILES.has(foldName(path.basename(candidate)))) return { path: candidate, kind: 'git' };
    }
    // A second name of a protected file: writing it writes the file (a hard link shares its contents).
    const shared = options.byInode === false ? undefined : this.sharedInode(file);
    if (shared) return shared;
    for (const entry of this.gitConfiguration) {
      const entries = candidates(entry);
      if (
        written.some((candidate) =>
          entries.some((gitConfig) => touches(candidate, gitConfig, options.replacesDirectories)),
        )
      )
        return { path: entry, kind: 'git' };
    }
    const code = this.codeRunning(written, options.replacesDirectories);
    if (code) return code;
    if (options.replacesDirectories) {
      for (const entry of this.gitDirectories) {
        const entries = candidates(entry);
        if (written.some((candidate) => entries.some((gitDir) => isSameOrInside(gitDir, candidate))))
          return { path: entry, kind: 'git' };
      }
    }
    return undefined;
  }

  /**
   * A code-running file (see code-running-files.ts) among `written`: by name anywhere, or inside a
   * directory a `core.hooksPath` names; with `replacesDirectories`, also a directory holding one
   * of those directories.
   */
  private codeRunning(written: readonly string[], replacesDirectories: boolean): ProtectedHit | undefined {
    for (const candidate of written) {
      const parts = candidate.split(path.sep);
      const length = codeRunningEntry(parts.map(foldName));
      if (length !== undefined) return { path: parts.slice(0, length).join(path.sep), kind: 'code' };
    }
    for (const directory of gitHooksDirectories(this.roots, this.homeDir)) {
      const entries = candidates(directory);
      if (
        written.some((candidate) => entries.some((entry) => touches(candidate, entry, replacesDirectories)))
      )
        return { path: directory, kind: 'code' };
    }
    return undefined;
  }

  /**
   * The protected file `file` is another name of (a hard link: same device and inode), or, when
   * `file` has several names and one of them might be protected, that it is unknown which.
   */
  private sharedInode(file: string): ProtectedHit | undefined {
    let stats: fs.Stats;
    try {
      stats = fs.statSync(file);
    } catch {
      return undefined;
    }
    if (!stats.isFile() || stats.nlink < 2) return undefined;
    for (const entry of [...this.configuration, ...this.agentFolders, ...this.gitConfiguration]) {
      const below = filesBelow(entry);
      // Too many files to compare: fail closed, it may be one of them.
      if (below.truncated)
        return { path: entry, kind: this.gitConfiguration.includes(entry) ? 'git' : 'configuration' };
      for (const candidate of below.files) {
        try {
          const other = fs.statSync(candidate);
          if (other.ino === stats.ino && other.dev === stats.dev)
            return { path: candidate, kind: this.gitConfiguration.includes(entry) ? 'git' : 'configuration' };
        } catch {
          // gone: nothing to share
        }
      }
    }
    return undefined;
  }
}

/** The regular files at or below `entry`, up to `limit` entries looked at (`truncated` when there were more). */
function filesBelow(entry: string, limit = 5000): { files: string[]; truncated: boolean } {
  const files: string[] = [];
  const pending = [entry];
  let looked = 0;
  while (pending.length > 0) {
    if (++looked > limit) return { files, truncated: true };
    const current = pending.pop() as string;
    let stats: fs.Stats;
    try {
      stats = fs.statSync(current);
    } catch {
      continue;
    }
    if (stats.isFile()) files.push(current);
    else if (stats.isDirectory()) {
      try {
        for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
      } catch {
        // unreadable: nothing of it can be linked by us either
      }
    }
  }
  return { files, truncated: false };
}

/**
 * A path component as a case-insensitive or Unicode-folding file system (macOS, Windows, ext4
 * casefold) may store it: lower case, without the code points HFS+ ignores, without the trailing
 * dots and spaces NTFS drops. Comparing folded names protects `.Claude/`, `.GIT/config`,
 * `.g\u200cit` and `.git.` wherever they name the same entry; where they do not, protecting them
 * costs nothing.
 */
function foldName(part: string): string {
  const lower = part.toLowerCase().replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '');
  return lower === '.' || lower === '..' ? lower : lower.replace(/[. ]+$/, '');
}

function foldPath(file: string): string {
  return file.split(path.sep).map(foldName).join(path.sep);
}

/**
 * The path as written (normalized) and where it really leads. The real path is resolved from the
 * path as given: `link/../x` is where the kernel goes (the link's parent), not `x` beside the link.
 */
function candidates(file: string): string[] {
  const lexical = path.resolve(file);
  const real = realpathLoose(path.isAbsolute(file) ? file : lexical);
  return real === lexical ? [lexical] : [lexical, real];
}

function touches(written: string, entry: string, replacesDirectories: boolean): boolean {
  const [file, protectedPath] = [foldPath(written), foldPath(entry)];
  return isSameOrInside(file, protectedPath) || (replacesDirectories && isSameOrInside(protectedPath, file));
}

/** What decided a protected write, as data (see PolicyCause). */
const CONFIGURATION = { kind: 'boundary', boundary: 'configuration' } as const;

/**
 * The policy's answer to a write that reaches a protected path (or may, when its destination is
 * `unknown` before the command runs): ask, with `hookMayDecide: false`, so only a person decides, in
 * every mode.
 */
export function protectedWriteVerdict(
  written: ProtectedHit | { readonly unknown: string },
): PermissionVerdict {
  if ('unknown' in written) {
    return {
      behavior: 'ask',
      message: `Writing to '${written.unknown}' needs approval: hookloop cannot tell before the command runs which file this is, and it could be hookloop's own configuration or git's, which no rule, mode or hook can approve.`,
      source: 'protected configuration',
      hookMayDecide: false,
      cause: CONFIGURATION,
    };
  }
  if (written.kind === 'code') {
    return {
      behavior: 'ask',
      message: `Writing to '${written.path}' needs approval: a program that may run later without asking (git, npm, yarn, pip, a shell, an editor) runs code this file names, which no rule, mode or hook can approve.`,
      source: 'code-running configuration',
      hookMayDecide: false,
      cause: CONFIGURATION,
    };
  }
  if (written.kind === 'git') {
    return {
      behavior: 'ask',
      message: `Writing to '${written.path}' needs approval: git reads it (config, hooks, attributes) and it could make later read-only git commands such as git status run code, which no rule, mode or hook can approve.`,
      source: 'git configuration',
      hookMayDecide: false,
      cause: CONFIGURATION,
    };
  }
  return {
    behavior: 'ask',
    message: `Writing to '${written.path}' needs approval: it holds hookloop configuration (hooks, permissions, plugins), which settings hot reload would apply during this session, and no rule, mode or hook can approve that.`,
    source: 'hook configuration',
    hookMayDecide: false,
    cause: CONFIGURATION,
  };
}
