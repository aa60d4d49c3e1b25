import path from 'node:path';
import { parseRule } from '../permissions/rule.js';
import type { PermissionRules } from '../permissions/types.js';
import { builtinToolsOfKind } from '../tools/builtin-tool-kinds.js';

/**
 * Read and Edit permission rules, carried into the sandbox. A sandboxed Bash command is allowed
 * without approval (autoAllowBashIfSandboxed), so a command such as `python -c "open('secrets/key')"`
 * would otherwise read a file `deny: Read(./secrets/**)` keeps from the Read tool. As in Claude
 * Code, Read rules become `denyRead` and Edit rules `denyWrite` inside the sandbox; ask rules count
 * as deny there (a person can still approve the Read or Edit tool).
 *
 * What the sandbox cannot express is reported instead of approximated: on Linux, bubblewrap binds
 * paths, not patterns, so a write rule with a glob (`Edit(**\/*.lock)`), and a rule for the whole
 * tool (`Read`, `Edit`), are `unenforceable`; the run then turns auto-allow off (fail closed).
 */
export interface RulePaths {
  /** Absolute paths and absolute globs (`/p/**\/*.pem`) the sandbox must not read. */
  readonly denyRead: readonly string[];
  /** Absolute paths (no globs) the sandbox must not write. */
  readonly denyWrite: readonly string[];
  /** The rules the sandbox cannot enforce, as written. */
  readonly unenforceable: readonly string[];
}

/** Where relative rule patterns point: `/x` and `./x` are under the project, `~/x` under home. */
export interface RulePlaces {
  readonly projectDir: string;
  readonly roots: readonly string[];
  readonly homeDir: string;
}

const READ_TOOLS = builtinToolsOfKind('read');
const WRITE_TOOLS = builtinToolsOfKind('edit');

/**
 * Translates the deny and ask rules (see RulePaths). Pattern anchoring follows the permission
 * rules (match-rule.ts): `//x` absolute, `~/x` home, `/x` and `./x` and `a/b` under the project
 * directory, a bare name (`.env`, `*.pem`) anywhere, here: under every workspace root and home.
 * Rules that fail to parse are skipped (the policy reports them).
 */
export function rulePaths(rules: Pick<PermissionRules, 'deny' | 'ask'>, places: RulePlaces): RulePaths {
  const denyRead: string[] = [];
  const denyWrite: string[] = [];
  const unenforceable: string[] = [];
  for (const text of [...rules.deny, ...rules.ask]) {
    let rule;
    try {
      rule = parseRule(text);
    } catch {
      continue;
    }
    const reads = READ_TOOLS.has(rule.toolName);
    const writes = WRITE_TOOLS.has(rule.toolName);
    if (!reads && !writes) continue;
    if (rule.specifier === undefined) {
      unenforceable.push(text);
      continue;
    }
    const patterns = absolutePatterns(rule.specifier, places);
    // A folder itself rather than `folder/**`: the runtime denies it whole, files created later included.
    if (reads) denyRead.push(...patterns.map((pattern) => globFreePath(pattern) ?? pattern));
    else {
      const exact = patterns.map(globFreePath);
      if (exact.some((entry) => entry === undefined)) unenforceable.push(text);
      else denyWrite.push(...(exact as string[]));
    }
  }
  return { denyRead: unique(denyRead), denyWrite: unique(denyWrite), unenforceable };
}

/** The specifier as absolute paths or globs (one per base for a bare name). */
function absolutePatterns(specifier: string, places: RulePlaces): string[] {
  const trimmed = /^\/+$/.test(specifier) ? specifier.slice(0, 2) : specifier.replace(/\/+$/, '');
  if (trimmed.startsWith('//')) return [path.join('/', trimmed.slice(2))];
  if (trimmed === '~') return [places.homeDir];
  if (trimmed.startsWith('~/')) return [path.join(places.homeDir, trimmed.slice(2))];
  if (trimmed.startsWith('/')) return [path.join(places.projectDir, trimmed.slice(1))];
  const relative = trimmed.replace(/^(\.\/)+/, '');
  if (relative !== trimmed || relative.includes('/')) return [path.join(places.projectDir, relative)];
  // A bare name matches a path component anywhere: the file or folder itself, and all below it.
  return unique([...places.roots, places.homeDir]).map((base) => path.join(base, '**', relative));
}

/** The path itself when it has no glob, its folder for a trailing `/**`, else undefined. */
function globFreePath(pattern: string): string | undefined {
  const base = pattern.endsWith('/**') ? pattern.slice(0, -3) : pattern;
  return /[*?[\]{}]/.test(base) ? undefined : base;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
