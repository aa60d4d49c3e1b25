import path from 'node:path';
import type { Workspace } from '../tools/workspace.js';
import type { BashClassification } from './bash-read-only.js';
import { matchesRule, type MatchFlavour } from './match-rule.js';
import type { PermissionRule } from './rule.js';
import type { PermissionMode } from './types.js';

/** Where rule patterns are resolved from. */
interface RulePlace {
  readonly cwd: string;
  readonly projectDir: string;
  readonly homeDir: string;
}

/**
 * Files a write to which changes nothing a person would approve: the null device, the terminal and
 * the standard streams (`> /dev/null`, `2> /dev/stderr`, `> /dev/fd/1`).
 */
const HARMLESS_DEVICES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);

/** True for a path that `HARMLESS_DEVICES` or `/dev/fd/N` names. */
export function isHarmlessDevice(file: string): boolean {
  return HARMLESS_DEVICES.has(file) || /^\/dev\/fd\/\d+$/.test(file);
}

/**
 * The files a Bash command writes as itself (redirections, `tee`, `cp`/`mv`/`ln` targets, `sed -i`,
 * `dd of=` …: every `writes` entry that names a path), harmless devices left out. `unknown`: some
 * written path is only known when the command runs. A rule or hook that approves a command approves
 * running it, not these writes: each is a file write the policy checks as one (as Claude Code does
 * for `echo x > f` under `Bash(echo:*)`).
 */
export function writtenFiles(bash: BashClassification | undefined): { readonly files: readonly string[]; readonly redirected: readonly string[]; readonly unknown: boolean } {
  const files: string[] = [];
  const redirected: string[] = [];
  let unknown = false;
  for (const write of bash?.writes ?? []) {
    if (write.kind === 'program' && write.path === undefined) continue;
    if (write.path === undefined || write.place === 'unknown' || !path.isAbsolute(write.path)) unknown = true;
    else if (!isHarmlessDevice(write.path)) {
      files.push(write.path);
      if (write.kind === 'redirect') redirected.push(write.path);
    }
  }
  return { files, redirected, unknown };
}

/** The first written file outside the workspace (a hook `allow` may not approve it, nor may a rule for the command). */
export function firstOutside(files: readonly string[], workspace: Workspace): string | undefined {
  return files.find((file) => !workspace.contains(file));
}

/** The first rule (other than a Bash rule) that covers a Write of one of `files`. */
export async function firstWriteRule(files: readonly string[], rules: readonly PermissionRule[], where: RulePlace, flavour: MatchFlavour): Promise<PermissionRule | undefined> {
  for (const file of files) {
    const options = { flavour, kind: 'edit' as const, filePaths: [file], homeDir: where.homeDir };
    for (const rule of rules) {
      if (rule.toolName !== 'Bash' && (await matchesRule(rule, 'Write', { file_path: file }, where.cwd, where.projectDir, options))) return rule;
    }
  }
  return undefined;
}

/**
 * Whether the files an allowed command writes are approved as writes on their own: each inside the
 * workspace and auto-allowed there (acceptEdits, bypassPermissions) or covered by an `Edit`/`Write`
 * allow rule; and none known only at run time (unless the OS sandbox confines the command).
 */
export async function writesApproved(
  written: ReturnType<typeof writtenFiles>,
  context: RulePlace & { readonly workspace: Workspace; readonly mode: PermissionMode; readonly allow: readonly PermissionRule[]; readonly sandboxed: boolean },
): Promise<boolean> {
  if (written.unknown && !context.sandboxed) return false;
  if (firstOutside(written.files, context.workspace) !== undefined) return false;
  if (context.mode === 'acceptEdits' || context.mode === 'bypassPermissions') return true;
  // Inside the workspace, a rule naming the program covers what that program writes (Claude Code
  // runs `touch f` under `Bash(touch *)`: rule-allow-vs-permission-request); a redirection is the
  // shell's write, not the program's, and needs its own approval (Claude Code asks for `echo x > f`
  // under `Bash(echo:*)`).
  for (const file of written.redirected) {
    if (!(await firstWriteRule([file], context.allow, context, 'all'))) return false;
  }
  return true;
}
