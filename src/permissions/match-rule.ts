import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import type { ToolKind } from '../tools/define-tool.js';
import { builtinToolKind } from '../tools/builtin-tool-kinds.js';
import { realpathLoose } from '../tools/workspace.js';
import { bashCommandIsKnown, matchBashSpecifier, matchCommandPattern } from './match-bash.js';
import { parseRule, type PermissionRule } from './rule.js';

/**
 * How a rule meets a call with several parts (a compound Bash command, a tool touching several paths):
 * - `any`: the rule matches when it matches one part. Deny and ask rules and hook `if` conditions
 *   use it (`Bash(git *)` matches `echo hi && git --version`; `Bash(rm *)` matches `echo $(rm x)`).
 * - `all`: every part must match. Allow rules use it, so `Bash(safe:*)` does not allow `safe && other`.
 * An unparsable Bash command, or one that runs a program that cannot be named before it runs
 * (`$r x`, `${!x}`, arithmetic on variables), matches every `any` rule and no `all` rule, not even `Bash`.
 */
export type MatchFlavour = 'any' | 'all';

export { matchBashSpecifier, matchCommandPattern };

/** Optional facts about the call; each has a default for Claude Code's built-in tools. */
export interface MatchOptions {
  /** Default `any`. */
  readonly flavour?: MatchFlavour;
  /** The tool's kind; default from the built-in names (Read/Glob/Grep read, Write/Edit/MultiEdit/NotebookEdit edit, Bash bash). */
  readonly kind?: ToolKind;
  /** Absolute paths the call touches; default: `file_path`, `notebook_path` or `path` of the input resolved against `cwd` (Glob/Grep without `path`: `cwd`). */
  readonly filePaths?: readonly string[];
  /** For `~/` patterns; default `os.homedir()`. */
  readonly homeDir?: string;
}

/**
 * Whether `rule` (a string in Claude Code syntax or a parsed rule) covers a call of `toolName` with
 * `input`. Tool names: exact; `Edit` covers every `edit`-kind tool and `Read` every `read`-kind
 * tool; `mcp__server` and `mcp__server__*` cover every tool of that server. Specifiers:
 * - Bash: `npm test` (exact), `git:*` (the word prefix `git`, alone or followed by arguments),
 *   `git commit *` (`*` matches any text; a single trailing ` *` also matches nothing, so
 *   `Bash(git *)` matches `git`). Compared with each program each simple command runs, written
 *   with or without quotes, through wrappers, `find -exec` and `xargs` (see `matchBashSpecifier`).
 * - Read/Edit/Write/Glob/Grep…: gitignore-style paths via picomatch: `//abs/path` absolute, `~/x`
 *   under the home directory, `/x` under `projectDir`, `./x` or `x/y` under `cwd` or `projectDir`,
 *   and a pattern without `/` matches a file or directory name anywhere (`*.md`). A pattern that
 *   matches a directory covers what is inside it. Symlinks: the path and its real path are both
 *   tried (`any`: either matches; `all`: both must).
 * - WebFetch: `domain:example.com` (the URL's host exactly; `domain:*.example.com` its subdomains;
 *   `domain:*` every host; case and a trailing dot do not count).
 * - Agent/Task: the `subagent_type`.
 * Other specifiers match nothing.
 *
 * @throws ConfigError when `rule` is a malformed string (see `parseRule`).
 */
export async function matchesRule(
  rule: PermissionRule | string,
  toolName: string,
  input: unknown,
  cwd: string,
  projectDir: string,
  options: MatchOptions = {},
): Promise<boolean> {
  const parsed = typeof rule === 'string' ? parseRule(rule) : rule;
  const kind = options.kind ?? builtinToolKind(toolName);
  if (!toolNameMatches(parsed.toolName, toolName, kind)) return false;
  const specifier = parsed.specifier;
  const flavour = options.flavour ?? 'any';
  // Claude Code gives an MCP tool's rules no specifier: `mcp__s__t(*)` allows nothing. As deny or
  // ask it still covers the tool (fails closed).
  if (
    specifier === undefined &&
    flavour === 'all' &&
    toolName.startsWith('mcp__') &&
    parsed.text.includes('(')
  )
    return false;
  if (specifier === undefined) {
    // A bare `Bash` allow rule covers what hookloop can read, not what it cannot: only a person or bypassPermissions runs that.
    if (kind !== 'bash' || flavour === 'any') return true;
    const command = (input as { command?: unknown } | null)?.command;
    return typeof command === 'string' && bashCommandIsKnown(command);
  }
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;

  if (kind === 'bash') {
    return typeof fields['command'] === 'string' && matchBashSpecifier(specifier, fields['command'], flavour);
  }
  if (kind === 'read' || kind === 'edit') {
    const paths = options.filePaths ?? defaultFilePaths(toolName, fields, cwd);
    if (paths.length === 0) return false;
    const test = (filePath: string): boolean =>
      matchPathSpecifier(specifier, filePath, {
        cwd,
        projectDir,
        homeDir: options.homeDir ?? os.homedir(),
        flavour,
      });
    return flavour === 'any' ? paths.some(test) : paths.every(test);
  }
  if (toolName === 'WebFetch')
    return typeof fields['url'] === 'string' && matchDomain(specifier, fields['url']);
  if (toolName === 'Agent' || toolName === 'Task') return fields['subagent_type'] === specifier;
  return false;
}

/** `matchesRule` with the `any` flavour: for deny and ask rules and hook `if` conditions. */
export function matchesAny(
  rule: PermissionRule | string,
  toolName: string,
  input: unknown,
  cwd: string,
  projectDir: string,
  options: Omit<MatchOptions, 'flavour'> = {},
): Promise<boolean> {
  return matchesRule(rule, toolName, input, cwd, projectDir, { ...options, flavour: 'any' });
}

/** `matchesRule` with the `all` flavour: for allow rules. */
export function matchesAll(
  rule: PermissionRule | string,
  toolName: string,
  input: unknown,
  cwd: string,
  projectDir: string,
  options: Omit<MatchOptions, 'flavour'> = {},
): Promise<boolean> {
  return matchesRule(rule, toolName, input, cwd, projectDir, { ...options, flavour: 'all' });
}

/**
 * A hook `if` condition: `matchesAny`, except that a condition that is not a valid rule
 * matches (the hook runs, as for an unparsable command) instead of throwing, and that the tool name
 * is compared as written: Claude Code's `if: "Edit"` does not run for Write (measured), although an
 * `Edit` permission rule covers every edit tool. Settings loaders should reject malformed
 * conditions up front with `parseRule`.
 */
export async function matchesCondition(
  condition: string,
  toolName: string,
  input: unknown,
  cwd: string,
  projectDir: string,
  options: Omit<MatchOptions, 'flavour'> = {},
): Promise<boolean> {
  let rule: PermissionRule;
  try {
    rule = parseRule(condition);
  } catch {
    return true; // a malformed condition must not break the run; the loader reports it
  }
  if (!toolNameMatches(rule.toolName, toolName, 'other')) return false;
  return matchesRule(rule, toolName, input, cwd, projectDir, { ...options, flavour: 'any' });
}

const AGENT_NAMES: ReadonlySet<string> = new Set(['Agent', 'Task']);

/** Whether a rule's tool name covers `toolName` (of `kind`); `Task` and `Agent` name the same tool. */
export function toolNameMatches(ruleTool: string, toolName: string, kind: ToolKind): boolean {
  if (ruleTool === toolName) return true;
  // Claude Code's subagent tool was called Task before it was Agent: a rule naming either covers both.
  if (AGENT_NAMES.has(ruleTool) && AGENT_NAMES.has(toolName)) return true;
  // TaskStop was KillShell (and KillBash) before: Claude Code reads rules naming those as TaskStop.
  if ((ruleTool === 'KillShell' || ruleTool === 'KillBash') && toolName === 'TaskStop') return true;
  if (ruleTool === 'Edit' && kind === 'edit') return true;
  if (ruleTool === 'Read' && kind === 'read') return true;
  if (ruleTool.startsWith('mcp__')) return mcpRuleMatches(ruleTool, toolName);
  return false;
}

/**
 * Claude Code's MCP rule forms: `mcp__server` and `mcp__server__*` cover every tool of the server;
 * in `mcp__server__tool` a `*` is a wildcard within the tool part (`mcp__github__get_*`). The
 * server part is literal (`mcp__*` is a server named `*`, which no normalised name is).
 */
function mcpRuleMatches(ruleTool: string, toolName: string): boolean {
  const [server, ...rest] = ruleTool.slice('mcp__'.length).split('__');
  const prefix = `mcp__${server}__`;
  if (!toolName.startsWith(prefix)) return false;
  if (rest.length === 0) return true;
  const toolPart = rest.join('__');
  const pattern = new RegExp(
    `^${toolPart
      .split('*')
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return pattern.test(toolName.slice(prefix.length));
}

/** Anchoring of a path pattern: the directories it is relative to, or a name matched anywhere. */
function anchor(
  specifier: string,
  context: { cwd: string; projectDir: string; homeDir: string },
): { bases: string[]; pattern: string } | { basename: string } {
  const trimmed = /^\/+$/.test(specifier) ? specifier.slice(0, 2) : specifier.replace(/\/+$/, '');
  if (trimmed.startsWith('//')) return { bases: ['/'], pattern: trimmed.slice(2) || '**' };
  if (trimmed === '~') return { bases: [context.homeDir], pattern: '**' };
  if (trimmed.startsWith('~/')) return { bases: [context.homeDir], pattern: trimmed.slice(2) || '**' };
  if (trimmed.startsWith('/')) return { bases: [context.projectDir], pattern: trimmed.slice(1) || '**' };
  const relative = trimmed.replace(/^(\.\/)+/, '');
  if (relative !== trimmed || relative.includes('/'))
    return { bases: [context.cwd, context.projectDir], pattern: relative || '**' };
  return { basename: relative };
}

/** Matches one absolute path against a path specifier (see `matchesRule`). */
export function matchPathSpecifier(
  specifier: string,
  filePath: string,
  context: { cwd: string; projectDir: string; homeDir: string; flavour: MatchFlavour },
): boolean {
  const matches = pathSpecifierMatcher(specifier, context);
  const candidates = [...new Set([path.resolve(filePath), realpathLoose(filePath)])];
  return context.flavour === 'any' ? candidates.some(matches) : candidates.every(matches);
}

/**
 * A path specifier compiled once, for testing many absolute paths (each as given: the caller
 * resolves links). See `matchesRule` for the pattern forms.
 */
export function pathSpecifierMatcher(
  specifier: string,
  context: { cwd: string; projectDir: string; homeDir: string },
): (candidate: string) => boolean {
  return compilePathSpecifier(specifier, context).matches;
}

/**
 * `pathSpecifierMatcher`, plus `mayMatchBelow(directory)`: false only when no path below
 * `directory` (absolute, as given) can match — the pattern is anchored elsewhere, or its fixed
 * leading directories lead away from `directory`. Used to skip walking trees no rule can reach.
 * `floating`: the pattern has no fixed leading directory (`*.lock`, `**\/*.lock`), so it may match
 * below any directory.
 */
export function compilePathSpecifier(
  specifier: string,
  context: { cwd: string; projectDir: string; homeDir: string },
): {
  matches: (candidate: string) => boolean;
  mayMatchBelow: (directory: string) => boolean;
  floating: boolean;
} {
  const anchored = anchor(specifier, context);
  if ('basename' in anchored) {
    const isMatch = picomatch(anchored.basename, { dot: true });
    return {
      matches: (candidate) => candidate.split('/').some((part) => part !== '' && isMatch(part)),
      mayMatchBelow: () => true,
      floating: true,
    };
  }
  const isMatch = picomatch(anchored.pattern, { dot: true });
  const bases = [...new Set(anchored.bases.flatMap((base) => [path.resolve(base), realpathLoose(base)]))];
  const fixed: string[] = [];
  for (const part of anchored.pattern.split('/')) {
    if (/[*?[\]{}()!+@]/.test(part)) break;
    fixed.push(part);
  }
  const mayMatchBelow = (directory: string): boolean =>
    bases.some((base) => {
      const relative = path.relative(base, directory);
      if (relative === '') return true;
      if (relative.startsWith('..') || path.isAbsolute(relative)) return isSameOrInsideText(base, directory);
      const parts = relative.split(path.sep);
      return parts.every((part, index) => index >= fixed.length || fixed[index] === part);
    });
  const matches = (candidate: string): boolean =>
    bases.some((base) => {
      const relative = path.relative(base, candidate);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative))
        return anchored.pattern === '**' && relative === '';
      // The path itself or a directory above it (gitignore: an ignored directory covers its contents).
      const parts = relative.split(path.sep);
      return parts.some((_, index) => isMatch(parts.slice(0, index + 1).join('/')));
    });
  return { matches, mayMatchBelow, floating: fixed.length === 0 };
}

function isSameOrInsideText(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

function matchDomain(specifier: string, url: string): boolean {
  if (!specifier.startsWith('domain:')) return false;
  // As Claude Code compares them: lower case, a trailing dot dropped; `*` alone is every host.
  const domain = specifier.slice('domain:'.length).toLowerCase().replace(/\.+$/, '');
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.+$/, '');
  } catch {
    return false; // not a URL: no domain to match
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (domain === '*') return true;
  // `*.example.com` covers the subdomains, not example.com itself.
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1)) && host.length > domain.length - 1;
  return host === domain;
}

function defaultFilePaths(toolName: string, fields: Record<string, unknown>, cwd: string): string[] {
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') return [path.resolve(cwd, value)];
  }
  return toolName === 'Glob' || toolName === 'Grep' ? [cwd] : [];
}
