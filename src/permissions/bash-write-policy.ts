import fs from 'node:fs';
import path from 'node:path';
import { builtinToolsOfKind } from '../tools/builtin-tool-kinds.js';
import { realpathLoose, type Workspace } from '../tools/workspace.js';
import type { BashWrite } from '../shell/index.js';
import { compilePathSpecifier } from './match-rule.js';
import type { PermissionRule } from './rule.js';
import type { PermissionMode, PermissionVerdict } from './types.js';

/**
 * What the policy found in the files a Bash command writes (`BashClassification.writes`), first
 * found first. Write and Edit rules are about files, whichever tool writes them: a Bash command
 * that writes a file is held to them as a Write of that file would be.
 * - `denied`: a written path (by real path or as written) is covered by a Write/Edit deny rule;
 * - `asked`: one is covered by a Write/Edit ask rule, or anything below a written tree may be;
 * - `unprovable`: a Write/Edit deny rule might cover what the command writes, and hookloop cannot
 *   tell before it runs: a destination only the shell knows (`> "$f"`, a glob, a path after `cd`,
 *   `/proc/self/cwd/…`), a tree written (`rm -r`, `mv`, `cp -r`) below which the rule may match, a
 *   file with more than one name (a hard link), a computed program, or a program hookloop does not
 *   read whose words name a covered path (`sort -o prod/f`, `tar -C prod`);
 * - `outside`: a known written path lies outside the working directories.
 * Rules for `Write`, `Edit`, `MultiEdit` and `NotebookEdit`, with or without a specifier, count.
 */
export interface WriteFindings {
  readonly denied?: { readonly path: string; readonly rule: PermissionRule };
  readonly asked?: { readonly path: string; readonly rule: PermissionRule };
  readonly unprovable?: { readonly what: string; readonly rule: PermissionRule };
  readonly outside?: { readonly path: string };
}

// Write and Edit rules name files, so every tool that edits files counts.
const EDIT_TOOLS = builtinToolsOfKind('edit');
// Writing these changes no file.
const HARMLESS = new Set(['/dev/null', '/dev/tty']);

interface Matcher {
  readonly rule: PermissionRule;
  readonly matches: (candidate: string) => boolean;
  readonly mayMatchBelow: (directory: string) => boolean;
  readonly floating: boolean;
}

/**
 * Looks at every write of a Bash command (see `WriteFindings`) against the Write/Edit deny and ask
 * rules and the workspace. Paths are compared as written and by real path. Never throws.
 */
export function inspectWrites(
  writes: readonly BashWrite[],
  context: {
    workspace: Workspace;
    cwd: string;
    projectDir: string;
    homeDir: string;
    deny: readonly PermissionRule[];
    ask: readonly PermissionRule[];
  },
): WriteFindings {
  const compile = (rules: readonly PermissionRule[]): Matcher[] =>
    rules
      .filter((rule) => EDIT_TOOLS.has(rule.toolName))
      .map((rule) => ({
        rule,
        ...(rule.specifier === undefined
          ? { matches: () => true, mayMatchBelow: () => true, floating: true }
          : compilePathSpecifier(rule.specifier, context)),
      }));
  const deny = compile(context.deny);
  const ask = compile(context.ask);
  const guarded = [...deny, ...ask];
  const findings: { -readonly [K in keyof WriteFindings]: WriteFindings[K] } = {};
  for (const write of writes) {
    if (write.kind === 'program' && write.path === undefined) {
      if (guarded.length === 0) continue;
      if (write.computed === true)
        findings.unprovable ??= {
          what: 'a program named only when the command runs',
          rule: (guarded[0] as Matcher).rule,
        };
      for (const mention of write.mentions ?? []) {
        const rule = guarded.find((matcher) => candidatesOf(mention).some(matcher.matches));
        if (rule) findings.unprovable ??= { what: mention, rule: rule.rule };
      }
      continue;
    }
    if (write.path === undefined || write.place === 'unknown' || !path.isAbsolute(write.path)) {
      if (guarded.length > 0)
        findings.unprovable ??= { what: write.message, rule: (guarded[0] as Matcher).rule };
      continue;
    }
    const candidates = candidatesOf(write.path);
    const denied = deny.find((matcher) => candidates.some(matcher.matches));
    if (denied) {
      findings.denied ??= { path: write.path, rule: denied.rule };
      continue;
    }
    const asked = ask.find((matcher) => candidates.some(matcher.matches));
    if (asked) findings.asked ??= { path: write.path, rule: asked.rule };
    if (write.tree === true) {
      // Below an existing directory, whatever a rule may match is replaced or removed; below a path
      // that does not exist yet, what the sources bring, which only a rule anchored there can name
      // (a floating `**/*.lock` would make every `mv a b` ask); below an existing file, nothing.
      const kind = kindOf(write.path);
      const reaches = (matcher: Matcher) =>
        kind !== 'file' &&
        (kind === 'directory' || !matcher.floating) &&
        candidates.some(matcher.mayMatchBelow);
      const below = deny.find(reaches);
      if (below) findings.unprovable ??= { what: `what is below ${write.path}`, rule: below.rule };
      const askedBelow = ask.find(reaches);
      if (askedBelow) findings.asked ??= { path: write.path, rule: askedBelow.rule };
    }
    // A second name of a file: the rule may cover the other one (compared by path, not by inode).
    if (guarded.length > 0 && hasOtherNames(write.path))
      findings.unprovable ??= {
        what: `${write.path}, which has more than one name (a hard link)`,
        rule: (guarded[0] as Matcher).rule,
      };
    if (!HARMLESS.has(write.path) && !context.workspace.contains(write.path))
      findings.outside ??= { path: write.path };
  }
  return findings;
}

function candidatesOf(file: string): string[] {
  return [...new Set([path.resolve(file), realpathLoose(file)])];
}

function kindOf(file: string): 'directory' | 'file' | 'missing' {
  try {
    return fs.statSync(file).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

function hasOtherNames(file: string): boolean {
  try {
    const stats = fs.statSync(file);
    return stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

/**
 * The verdict for a write a Write/Edit deny or ask rule may cover that hookloop cannot place
 * (`unprovable`), in every mode: it asks, and only a person decides; dontAsk refuses. Not when the
 * OS sandbox runs the command with every Write rule carried into it (`rulesCarried`). A write
 * outside the working directories is not decided here: it keeps allow rules and hook allows
 * from approving the command, and the mode decides (see the policy).
 */
export function writeBoundaryVerdict(
  findings: WriteFindings,
  mode: PermissionMode,
  rulesCarried: boolean,
): PermissionVerdict | undefined {
  if (!findings.unprovable || rulesCarried) return undefined;
  const { what, rule } = findings.unprovable;
  const message = `This command needs approval: the rule ${rule.text} may cover a file it writes (${what}), and hookloop cannot tell before it runs which files those are. Write to paths named literally.`;
  // For PermissionDecision: the Write/Edit deny rule that may cover the write decided.
  const cause = { kind: 'rule', list: 'deny', rule: rule.text } as const;
  if (mode === 'dontAsk') return { behavior: 'deny', message, source: `rule ${rule.text}`, cause };
  return { behavior: 'ask', message, source: `rule ${rule.text}`, hookMayDecide: false, cause };
}
