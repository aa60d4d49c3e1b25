import fs from 'node:fs';
import path from 'node:path';
import { realpathLoose, type Workspace } from '../tools/workspace.js';
import type { BashRead } from '../shell/index.js';
import { compilePathSpecifier, toolNameMatches } from './match-rule.js';
import type { PermissionRule } from './rule.js';
import type { PermissionMode, PermissionVerdict } from './types.js';

/**
 * What the policy found in the files a Bash command reads (`BashClassification.reads`), first
 * found first:
 * - `denied`: a path a reading program names is covered by a Read deny rule: the call is denied,
 *   as Claude Code denies `cat secrets/key` under `deny: Read(./secrets/**)`;
 * - `asked`: a path, or a file in a tree the command walks, is covered by a Read ask rule;
 * - `deniedBelow`: a recursive reader (`grep -r`, `rg`, `find`, `git grep`) would reach a file a
 *   Read deny rule covers;
 * - `unknown`: a reading program's file is only known when the command runs (`cat "$f"`) while
 *   Read rules are in force: it could be a denied one;
 * - `unchecked`: such a tree is too big to look through (more than `WALK_LIMIT` entries) while
 *   Read rules are in force;
 * - `outside`: a path, or a link a walk would follow, leads outside the working directories, or
 *   into `/proc`, `/sys` or `/dev` (`/proc/self/environ` holds the process's environment).
 */
export interface ReadFindings {
  readonly denied?: { readonly read: BashRead; readonly rule: PermissionRule };
  readonly asked?: { readonly read: BashRead; readonly rule: PermissionRule };
  readonly deniedBelow?: { readonly read: BashRead; readonly file: string; readonly rule: PermissionRule };
  readonly unchecked?: { readonly read: BashRead };
  /** A file is read whose path only the running shell knows (`cat "$f"`), while Read rules are in force. */
  readonly unknown?: { readonly read: BashRead };
  readonly outside?: { readonly read: BashRead; readonly path: string };
}

/** Entries looked at below one walked path before giving up (the call then asks). */
export const WALK_LIMIT = 20_000;

const HARMLESS = new Set(['/dev/null', '/dev/stdin']);
const SPECIAL = ['/proc', '/sys', '/dev'];

interface Matcher {
  readonly rule: PermissionRule;
  readonly matches: (candidate: string) => boolean;
  readonly mayMatchBelow: (directory: string) => boolean;
}

/**
 * Looks at every read of a Bash command (see `ReadFindings`) against the Read deny and ask rules
 * (a rule for `Read`, with or without a specifier) and the workspace. Paths are compared as
 * written and by real path. Never throws.
 */
export function inspectReads(
  reads: readonly BashRead[],
  context: {
    workspace: Workspace;
    cwd: string;
    projectDir: string;
    homeDir: string;
    deny: readonly PermissionRule[];
    ask: readonly PermissionRule[];
  },
): ReadFindings {
  const compile = (rules: readonly PermissionRule[]): Matcher[] =>
    rules
      .filter((rule) => toolNameMatches(rule.toolName, 'Read', 'read'))
      .map((rule) => ({
        rule,
        ...(rule.specifier === undefined
          ? { matches: () => true, mayMatchBelow: () => true }
          : compilePathSpecifier(rule.specifier, context)),
      }));
  const deny = compile(context.deny);
  const ask = compile(context.ask);
  const findings: { -readonly [K in keyof ReadFindings]: ReadFindings[K] } = {};
  for (const read of reads) {
    if (read.path === undefined) {
      if (deny.length > 0 || ask.length > 0) findings.unknown ??= { read };
      continue;
    }
    const real = realpathLoose(read.path);
    const lexical = path.resolve(read.path);
    const candidates = [...new Set([lexical, real])];
    const ruleFor = (matchers: Matcher[]) => matchers.find((matcher) => candidates.some(matcher.matches));
    const denied = ruleFor(deny);
    if (denied) {
      findings.denied ??= { read, rule: denied.rule };
      continue;
    }
    const asked = ruleFor(ask);
    if (asked) findings.asked ??= { read, rule: asked.rule };
    if (
      read.guessed !== true &&
      !HARMLESS.has(lexical) &&
      (!context.workspace.contains(real) || isSpecial(real))
    )
      findings.outside ??= { read, path: real };
    if (!read.tree || read.guessed === true) continue;
    // Only the rules that could match below this path, and only when a rule or a followed link could matter.
    const reaching = (matchers: Matcher[]) =>
      matchers.filter((matcher) => candidates.some(matcher.mayMatchBelow));
    const rules = { deny: reaching(deny), ask: reaching(ask), workspace: context.workspace };
    if (rules.deny.length > 0 || rules.ask.length > 0 || read.follows) walk(real, read, rules, findings);
  }
  return findings;
}

function isSpecial(real: string): boolean {
  return SPECIAL.some((root) => real === root || real.startsWith(`${root}/`));
}

/** Goes through the tree below `root` as the reader would (links followed or not, dot-names skipped or not). */
function walk(
  root: string,
  read: BashRead,
  rules: { deny: Matcher[]; ask: Matcher[]; workspace: Workspace },
  findings: { -readonly [K in keyof ReadFindings]: ReadFindings[K] },
): void {
  const pending = [root];
  const seen = new Set([root]);
  let count = 0;
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // not a directory, or unreadable: the reader cannot read below it either
    }
    for (const entry of entries) {
      if (read.skipsHidden && entry.name.startsWith('.')) continue;
      if (++count > WALK_LIMIT) {
        findings.unchecked ??= { read };
        return;
      }
      const file = path.join(directory, entry.name);
      let next: string | undefined = entry.isDirectory() ? file : undefined;
      const candidates = [file];
      if (entry.isSymbolicLink() && read.follows) {
        const real = realpathLoose(file);
        candidates.push(real);
        if (!rules.workspace.contains(real) || isSpecial(real)) {
          findings.outside ??= { read, path: real };
          continue;
        }
        next = isDirectory(real) ? real : undefined;
      }
      const denied = rules.deny.find((matcher) => candidates.some(matcher.matches));
      if (denied) {
        findings.deniedBelow ??= { read, file, rule: denied.rule };
        continue;
      }
      const asked = rules.ask.find((matcher) => candidates.some(matcher.matches));
      if (asked) findings.asked ??= { read, rule: asked.rule };
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

// Claude Code's words for its path check of shell commands (trace: bash-read-paths), per program.
const VERBS: Readonly<Record<string, string>> = {
  cat: 'concatenate files',
  head: 'read the beginning of files',
  tail: 'read the end of files',
  ls: 'list files',
  grep: 'search for patterns in files',
  rg: 'search for patterns in files',
  egrep: 'search for patterns in files',
  fgrep: 'search for patterns in files',
  cd: 'change directories',
};

/**
 * The verdict for what `inspectReads` found beyond a deny or ask rule: a read outside the working
 * directories (not in bypassPermissions), or a walk that reaches a denied file or cannot be
 * checked. Each asks, and only a person decides, as for the Read tool outside the workspace.
 */
export function readBoundaryVerdict(
  findings: ReadFindings,
  workspace: Workspace,
  mode: PermissionMode,
): PermissionVerdict | undefined {
  const verdict = boundaryAsk(findings, workspace, mode);
  // dontAsk refuses what would need a person, as it does for every call it cannot allow.
  if (verdict?.behavior === 'ask' && mode === 'dontAsk')
    return {
      behavior: 'deny',
      message: verdict.message,
      source: verdict.source,
      ...(verdict.cause ? { cause: verdict.cause } : {}),
    };
  return verdict;
}

/** A read hookloop cannot check against the Read rules: a boundary no hook may lift. */
const READ_RULES = { kind: 'boundary', boundary: 'read_rules' } as const;

function boundaryAsk(
  findings: ReadFindings,
  workspace: Workspace,
  mode: PermissionMode,
): PermissionVerdict | undefined {
  const roots = workspace.roots.map((root) => `'${root}'`).join(', ');
  if (findings.deniedBelow) {
    const { read, file, rule } = findings.deniedBelow;
    return {
      behavior: 'ask',
      message: `${read.program} in '${path.resolve(read.path ?? '.')}' needs approval: it would read '${file}', which the rule ${rule.text} denies. Search or list narrower paths that leave it out.`,
      source: `rule ${rule.text}`,
      hookMayDecide: false,
      cause: { kind: 'rule', list: 'deny', rule: rule.text },
    };
  }
  if (findings.unknown) {
    const { read } = findings.unknown;
    return {
      behavior: 'ask',
      message: `${read.program} needs approval: it reads a file whose name is only known when the command runs, which could be one that a Read rule in force covers.`,
      source: 'read rules',
      hookMayDecide: false,
      cause: READ_RULES,
    };
  }
  if (findings.unchecked) {
    const { read } = findings.unchecked;
    return {
      behavior: 'ask',
      message: `${read.program} in '${path.resolve(read.path ?? '.')}' needs approval: it reads more than ${WALK_LIMIT} entries below that path, too many for hookloop to check against the Read rules in force.`,
      source: 'read rules',
      hookMayDecide: false,
      cause: READ_RULES,
    };
  }
  if (findings.outside && mode !== 'bypassPermissions') {
    const { read, path: where } = findings.outside;
    const message = `${read.program} in '${where}' was blocked. For security, Claude Code may only ${VERBS[read.program] ?? 'read files'} from the allowed working directories for this session: ${roots}.`;
    return {
      behavior: 'ask',
      message,
      source: 'workspace boundary',
      hookMayDecide: false,
      cause: { kind: 'boundary', boundary: 'workspace' },
      suggestions: [{ type: 'addDirectories', directories: [path.dirname(where)], destination: 'session' }],
    };
  }
  return undefined;
}
