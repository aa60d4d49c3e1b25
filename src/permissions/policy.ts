import os from 'node:os';
import path from 'node:path';
import type { AnyTool } from '../tools/define-tool.js';
import { isSameOrInside, realpathLoose, type Workspace } from '../tools/workspace.js';
import { classifyBashCommand, codeReadsOf, writesFromData, type BashClassification } from '../shell/index.js';
import { gitHooksDirectories } from './code-running-files.js';
import { SessionTaint, type TaintChange } from './session-taint.js';
import { taintChangeOf, taintVerdict } from './taint-check.js';
import { askMessage, denyMessage, dontAskDenial, planMessage } from './policy-messages.js';
import { checkMode, defaultPaths } from './policy-inputs.js';
import { permissionSuggestions } from './permission-suggestions.js';

export { ruleForCall } from './permission-suggestions.js';

export { DENIAL_WORKAROUND_GUIDANCE } from './policy-messages.js';
import { inspectReads, readBoundaryVerdict, type ReadFindings } from './bash-read-policy.js';
import { bashCommandIsKnown } from './match-bash.js';
import { inspectWrites, writeBoundaryVerdict, type WriteFindings } from './bash-write-policy.js';
import { matchesRule, toolNameMatches, type MatchFlavour } from './match-rule.js';
import { ProtectedPaths, protectedWriteVerdict, type ProtectedHit } from './protected-paths.js';
import { parseRule, type PermissionRule } from './rule.js';
import { RuleFiles } from './rule-files.js';
import {
  type PermissionMode,
  type PermissionQuery,
  type PermissionRules,
  type PermissionVerdict,
  type PolicyCause,
} from './types.js';

/** What a `PermissionPolicy` is built from. */
export interface PermissionPolicyOptions {
  readonly rules: PermissionRules;
  readonly mode: PermissionMode;
  readonly workspace: Workspace;
  /** The project directory: `/x` rule patterns are relative to it. */
  readonly projectDir: string;
  /** For `~/` rule patterns and `~` in commands; default `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * Files and directories hookloop's configuration came from (settings files, the config folder,
   * plugin directories): protected from writes as the fixed locations are (see `ProtectedPaths`).
   */
  readonly configurationFiles?: readonly string[];
  /**
   * True for a Bash call that runs in the OS sandbox with `autoAllowBashIfSandboxed` on: the mode
   * step allows it without approval (after deny and ask rules, plan mode and the boundaries).
   */
  readonly sandboxAutoAllows?: (input: unknown) => boolean;
  /**
   * True for a Bash call that will run in the OS sandbox, which keeps hookloop's configuration
   * read-only whatever path the command computes: a write whose destination is only known at run
   * time then needs no approval for that reason (it still does for every other).
   */
  readonly runsSandboxed?: (input: unknown) => boolean;
  /**
   * Where each rule came from, index for index with `rules` (a settings file, `--allowedTools`):
   * reported as the rule's `file` in a verdict's `cause`. Missing entries are simply not reported.
   */
  readonly ruleSources?: Partial<Record<Behavior, readonly (string | undefined)[]>>;
  /** The session's taint changes so far, oldest first (a resumed session's, from its transcript). */
  readonly taint?: readonly TaintChange[];
}

type Behavior = 'allow' | 'ask' | 'deny';

const HOOK: PolicyCause = { kind: 'hook' };
/** One call as the steps below see it. */
interface Call {
  readonly query: PermissionQuery;
  readonly tool: AnyTool;
  readonly paths: readonly string[];
  readonly command: string | undefined;
  /** Computed once, for Bash calls only. */
  bash?: BashClassification;
  reads?: ReadFindings;
  writes?: WriteFindings;
}

/**
 * Decides one tool call: allow, deny, or ask a human. The order (a deny outranks everything):
 * 1. deny rules → deny; 2. ask rules → ask; 3. hard boundaries → ask that no hook may decide: a
 * `read`/`edit` tool on a path outside the workspace (except in bypassPermissions), `rm` of `/`,
 * the home directory or a workspace root, and a write that reaches hookloop's configuration or
 * git's code-running files by real path, or whose destination cannot be known (`ProtectedPaths`;
 * these three in every mode, and only a person may approve them); 4. plan mode → deny whatever is not
 * read-only; 5. the PreToolUse hooks' decision: `allow` → allow, `ask` → ask with the hook's reason
 * (no PermissionRequest, as the reference); 6. allow rules → allow; 7. the mode: bypassPermissions
 * allows; read tools, read-only tools and read-only Bash are allowed; Bash that runs in the OS
 * sandbox is allowed with `autoAllowBashIfSandboxed`; acceptEdits allows edit tools
 * and Bash file edits inside the workspace; dontAsk denies; otherwise ask.
 * Deny and ask rules match when they match any part of a call; allow rules must match all of it
 * (see `matchesRule`). A hook `allow` therefore never beats a deny or ask rule, the workspace
 * boundary or plan mode, but it does skip the approval the mode alone would ask for.
 */
export class PermissionPolicy {
  private currentMode: PermissionMode;
  private lists: Record<Behavior, PermissionRule[]>;
  /** The rules added during the session (never those of the settings): the only ones a hook may remove. */
  private readonly sessionRules = new Set<PermissionRule>();
  private readonly workspace: Workspace;
  private readonly projectDir: string;
  private readonly homeDir: string;
  private readonly protectedPaths: ProtectedPaths;
  private readonly sandboxAutoAllows: ((input: unknown) => boolean) | undefined;
  private readonly runsSandboxed: ((input: unknown) => boolean) | undefined;
  /** Where a rule came from (see `PermissionPolicyOptions.ruleSources`); session rules are `session`. */
  private readonly ruleFiles: RuleFiles;
  /**
   * The last classification of each (frozen) input, so that `writesOf` after `evaluate` of the
   * same input does not read the command again (a different cwd reads it again).
   */
  private readonly classified = new WeakMap<object, { cwd: string; bash: BashClassification }>();
  /** What the model wrote this session (see `SessionTaint`); subagents' views share it. */
  private readonly taint = new SessionTaint();

  /** @throws ConfigError for a malformed rule (naming `permissions.<list>[i]`) or an unknown mode. */
  constructor(options: PermissionPolicyOptions) {
    this.currentMode = checkMode(options.mode);
    this.workspace = options.workspace;
    this.projectDir = path.resolve(options.projectDir);
    this.homeDir = options.homeDir ?? os.homedir();
    this.protectedPaths = new ProtectedPaths({
      projectDir: this.projectDir,
      homeDir: this.homeDir,
      roots: this.workspace.roots,
      files: options.configurationFiles ?? [],
    });
    this.sandboxAutoAllows = options.sandboxAutoAllows;
    this.runsSandboxed = options.runsSandboxed;
    this.lists = {
      allow: options.rules.allow.map((rule, index) => parseRule(rule, `permissions.allow[${index}]`)),
      ask: options.rules.ask.map((rule, index) => parseRule(rule, `permissions.ask[${index}]`)),
      deny: options.rules.deny.map((rule, index) => parseRule(rule, `permissions.deny[${index}]`)),
    };
    this.ruleFiles = new RuleFiles(this.lists, options.ruleSources);
    for (const change of options.taint ?? []) this.taint.apply(change);
  }

  /**
   * What `query` will write, as a taint change (see `taintChangeOf`), to be passed to `noteTaint`
   * once the call has run. Compute it before the call runs: a Bash `cd` moves the session. Never throws.
   */
  async writesOf(query: PermissionQuery): Promise<TaintChange | undefined> {
    const call = this.describe(query);
    if (call.tool.kind !== 'edit' && call.tool.kind !== 'bash') return undefined;
    const bash = await this.classify(call, true);
    // `git apply`, `tar -x`, `patch`: the files come from the data, so any file may have been written.
    const fromData =
      call.command !== undefined && bash?.readOnly !== true && (await writesFromData(call.command));
    return taintChangeOf(call.tool.kind === 'edit' ? call.paths : [], bash, fromData);
  }

  /**
   * Records a taint change: what a call wrote (`writesOf`), or a person's approval of a call whose
   * ask was the taint's (`trustTaint`). Returns whether the taint changed (the loop then writes
   * the change to the transcript, for a resumed session). Never throws.
   */
  noteTaint(change: TaintChange): boolean {
    return this.taint.apply(change);
  }

  /** The change that trusts what a taint ask named (`verdict.taint`): apply it with `noteTaint` once a person approved. */
  static trustTaint(taint: { readonly files: readonly string[]; readonly unknown: boolean }): TaintChange {
    return { kind: 'trusted', files: taint.files, ...(taint.unknown ? { unknown: true } : {}) };
  }

  /**
   * The files `command` (run from `cwd`, as a command hook is) runs that this session wrote, by
   * the same table as a Bash call's; empty when none. For reporting, never for blocking. Never throws.
   */
  async taintedFilesRunBy(command: string, cwd: string): Promise<readonly string[]> {
    if (this.taint.empty) return [];
    const reads = await codeReadsOf(command, cwd, this.homeDir);
    return this.taint.taintedIn(reads, () => this.hookDirectories())?.files ?? [];
  }

  /** The current permission mode. */
  get mode(): PermissionMode {
    return this.currentMode;
  }

  /**
   * A view of this policy in another mode, for a subagent: the same rules (session rules added
   * through either are seen by both), boundary and protected configuration; only the mode differs.
   * @throws ConfigError for an unknown mode.
   */
  withMode(mode: PermissionMode): PermissionPolicy {
    const view = Object.create(this) as PermissionPolicy;
    view.currentMode = checkMode(mode);
    return view;
  }

  /**
   * A view of this policy with `rules` added after its allow rules, for the calls of one slash
   * command's `allowed-tools` (`source` names the command file, as a rule's file). The rules approve
   * as settings allow rules do: never past a deny or ask rule, the workspace boundary or protected
   * configuration. The view sees the rules in force now; session rules added later are not in it.
   * @throws ConfigError for a malformed rule.
   */
  withAllowRules(rules: readonly string[], source: string): PermissionPolicy {
    const added = rules.map((rule, index) => parseRule(rule, `allowed-tools[${index}]`));
    for (const rule of added) this.ruleFiles.set(rule, source);
    const view = Object.create(this) as PermissionPolicy;
    view.lists = { ...this.lists, allow: [...this.lists.allow, ...added] };
    return view;
  }

  /** Changes the mode for the calls evaluated from now on. @throws ConfigError for an unknown mode. */
  setMode(mode: PermissionMode): void {
    this.currentMode = checkMode(mode);
  }

  /** The rules in force, settings rules first, then session rules in the order they were added. */
  get rules(): PermissionRules {
    return {
      allow: this.lists.allow.map((rule) => rule.text),
      ask: this.lists.ask.map((rule) => rule.text),
      deny: this.lists.deny.map((rule) => rule.text),
    };
  }

  /**
   * Adds a rule for the rest of the session (PermissionRequest `updatedPermissions`, an approver's
   * "always"). It takes effect at its step of the order like a settings rule. Use `ruleForCall` to
   * build an exact rule for a call. @throws ConfigError when the rule is malformed.
   */
  addSessionRule(behavior: Behavior, rule: string): void {
    const parsed = parseRule(rule, `session ${behavior} rule`);
    this.lists[behavior].push(parsed);
    this.sessionRules.add(parsed);
    this.ruleFiles.set(parsed, 'session');
  }

  /**
   * Removes session rules (added with `addSessionRule`) whose text is one of `rules`, for
   * PermissionRequest `updatedPermissions` `removeRules`/`replaceRules`. A rule from the settings is
   * never removed: a hook cannot drop a deny rule the user wrote. Returns the texts that named no
   * session rule (settings rules among them), for a warning.
   */
  removeSessionRules(behavior: Behavior, rules: readonly string[]): string[] {
    const wanted = new Set(rules.map((rule) => parseRule(rule, `session ${behavior} rule`).text));
    const removed = new Set<string>();
    this.lists[behavior] = this.lists[behavior].filter((rule) => {
      if (!this.sessionRules.has(rule) || !wanted.has(rule.text)) return true;
      removed.add(rule.text);
      this.sessionRules.delete(rule);
      return false;
    });
    return [...wanted].filter((text) => !removed.has(text));
  }

  /** The session rules of one behavior (for `replaceRules`: the settings' rules are not the hook's to replace). */
  sessionRulesOf(behavior: Behavior): string[] {
    return this.lists[behavior].filter((rule) => this.sessionRules.has(rule)).map((rule) => rule.text);
  }

  /**
   * True when a deny rule without a specifier names `toolName` (`mcp__github__create_issue`,
   * `mcp__github`, `mcp__github__*`; settings and session rules alike): the tool is denied as a
   * whole, so it is not offered to the model at all. Names are compared as written (`Task` and
   * `Agent` are one tool); an `Edit` rule hides Edit, not every tool that edits files. Never throws.
   */
  hidesTool(toolName: string): boolean {
    return this.lists.deny.some(
      (rule) => rule.specifier === undefined && toolNameMatches(rule.toolName, toolName, 'other'),
    );
  }

  /** Evaluates one call (see the class comment for the order). Never throws. */
  async evaluate(query: PermissionQuery): Promise<PermissionVerdict> {
    const call = this.describe(query);
    const mode = this.currentMode;

    const denied = await this.firstMatch('deny', call, 'any');
    if (denied)
      return {
        behavior: 'deny',
        message: denyMessage(call),
        source: `rule ${denied.text}`,
        cause: this.ruleFiles.cause('deny', denied),
      };
    // The files a Bash command reads are under the Read rules, as the Read tool is.
    const reads = await this.readFindings(call);
    if (reads?.denied)
      return {
        behavior: 'deny',
        message: denyMessage(call),
        source: `rule ${reads.denied.rule.text}`,
        cause: this.ruleFiles.cause('deny', reads.denied.rule),
      };
    const writes = await this.writeFindings(call); // the files a Bash command writes are under the Write/Edit rules
    if (writes?.denied)
      return {
        behavior: 'deny',
        message: denyMessage(call),
        source: `rule ${writes.denied.rule.text}`,
        cause: this.ruleFiles.cause('deny', writes.denied.rule),
      };
    // Plan mode's read-only rule comes before ask rules, so no approval can route around it.
    // Like the reference, it still lets PermissionRequest hooks see the call.
    if (mode === 'plan' && !(await this.readOnly(call))) {
      // The refusal reads as the ask rule's when one covers the call too, as the reference words it.
      const message = (await this.firstMatch('ask', call, 'any')) ? askMessage(call) : planMessage(call);
      return {
        behavior: 'ask',
        message,
        source: 'mode plan',
        hookMayDecide: false,
        humanMayDecide: false,
        cause: { kind: 'mode', mode },
      };
    }
    const asked = await this.firstMatch('ask', call, 'any');
    // dontAsk never asks: an ask rule is a refusal there, without PermissionRequest (as in Claude Code).
    if (asked && mode === 'dontAsk')
      return {
        ...dontAskDenial(call.tool.name),
        source: `rule ${asked.text} (mode dontAsk)`,
        cause: this.ruleFiles.cause('ask', asked),
      };
    if (asked)
      return {
        behavior: 'ask',
        message: askMessage(call),
        source: `rule ${asked.text}`,
        hookMayDecide: true,
        cause: this.ruleFiles.cause('ask', asked),
      };
    if (reads?.asked)
      return {
        behavior: 'ask',
        message: askMessage(call),
        source: `rule ${reads.asked.rule.text}`,
        hookMayDecide: true,
        cause: this.ruleFiles.cause('ask', reads.asked.rule),
      };
    const writeAsked = writes?.asked?.rule;
    if (writeAsked)
      return mode === 'dontAsk'
        ? {
            ...dontAskDenial(call.tool.name),
            source: `rule ${writeAsked.text} (mode dontAsk)`,
            cause: this.ruleFiles.cause('ask', writeAsked),
          }
        : {
            behavior: 'ask',
            message: askMessage(call),
            source: `rule ${writeAsked.text}`,
            hookMayDecide: true,
            cause: this.ruleFiles.cause('ask', writeAsked),
          };

    const boundary = await this.boundary(call);
    if (boundary) return boundary;

    // A hook may not allow a Bash command hookloop cannot read or whose programs it cannot name (only a person or bypassPermissions may),
    // nor, like an allow rule, a write outside the workspace (`cp a /x`, `> /x`): the mode decides (the OS sandbox refuses them).
    const writesOut = writes?.outside !== undefined && this.runsSandboxed?.(query.input) !== true;
    if (
      query.hookDecision === 'allow' &&
      !writesOut &&
      (call.command === undefined || (await bashCommandIsKnown(call.command)))
    )
      return { behavior: 'allow', source: 'hook', cause: HOOK };
    // Claude Code's words for a hook's ask without a reason (measured): what a headless run refuses with.
    if (query.hookDecision === 'ask')
      return {
        behavior: 'ask',
        message: query.hookReason || `Hook PreToolUse:${call.tool.name} asked for confirmation for this tool`,
        source: 'hook',
        hookMayDecide: false,
        cause: HOOK,
      };

    const allowed = await this.firstMatch('allow', call, 'all');
    if (allowed && (!writesOut || (await this.userAllowsEveryCommand(call)))) {
      // A rule approves the command as the user wrote it, not the code the model put in the files it runs.
      const tainted = await this.taintedCode(call);
      if (tainted) return taintVerdict(tainted, mode, this.projectDir);
      return {
        behavior: 'allow',
        source: `rule ${allowed.text}`,
        cause: this.ruleFiles.cause('allow', allowed),
      };
    }

    return this.byMode(call);
  }

  /**
   * What a Bash call runs that this session wrote (see `CODE_READERS`), or undefined; off in
   * bypassPermissions, where nothing is asked.
   */
  private async taintedCode(call: Call) {
    if (this.taint.empty || call.command === undefined || this.currentMode === 'bypassPermissions')
      return undefined;
    const reads = await codeReadsOf(call.command, call.query.cwd, this.homeDir);
    return this.taint.taintedIn(reads, () => this.hookDirectories());
  }

  /** Where git runs hooks from in the working directories: `.git/hooks` and every `core.hooksPath`. */
  private hookDirectories(): string[] {
    const roots = this.workspace.roots;
    return [
      ...roots.map((root) => path.join(root, '.git', 'hooks')),
      ...gitHooksDirectories(roots, this.homeDir),
    ];
  }

  private describe(query: PermissionQuery): Call {
    const tool = query.tool;
    const fields = (typeof query.input === 'object' && query.input !== null ? query.input : {}) as Record<
      string,
      unknown
    >;
    let paths: readonly string[] = [];
    if (tool.kind === 'read' || tool.kind === 'edit') {
      try {
        paths = (
          tool.filePaths?.(query.input, { cwd: query.cwd }) ?? defaultPaths(fields, tool.name, query.cwd)
        ).map((file) => path.resolve(query.cwd, file));
      } catch {
        paths = defaultPaths(fields, tool.name, query.cwd); // a tool's filePaths that throws falls back to the usual input fields
      }
      // A read tool that names no path reads where it stands (Grep and Glob without `path`).
      if (paths.length === 0 && tool.kind === 'read') paths = [path.resolve(query.cwd)];
    }
    const command =
      tool.kind === 'bash' && typeof fields['command'] === 'string' ? fields['command'] : undefined;
    return { query, tool, paths, command };
  }

  private async firstMatch(
    behavior: Behavior,
    call: Call,
    flavour: MatchFlavour,
  ): Promise<PermissionRule | undefined> {
    for (const rule of this.lists[behavior]) {
      if (await this.matches(rule, call, flavour)) return rule;
    }
    return undefined;
  }

  private matches(rule: PermissionRule, call: Call, flavour: MatchFlavour): Promise<boolean> {
    const options = { flavour, kind: call.tool.kind, filePaths: call.paths, homeDir: this.homeDir };
    return matchesRule(rule, call.tool.name, call.query.input, call.query.cwd, this.projectDir, options);
  }

  /** `reuse`: take the classification `evaluate` made of this same input (for `writesOf` only: `evaluate` always reads afresh). */
  private async classify(call: Call, reuse = false): Promise<BashClassification | undefined> {
    if (call.command === undefined) return undefined;
    const input = call.query.input as object;
    const known = reuse ? this.classified.get(input) : undefined;
    if (known?.cwd === call.query.cwd) call.bash ??= known.bash;
    call.bash ??= await classifyBashCommand(call.command, {
      cwd: call.query.cwd,
      workspace: this.workspace,
      homeDir: this.homeDir,
    });
    this.classified.set(input, { cwd: call.query.cwd, bash: call.bash });
    return call.bash;
  }

  /** What the files a Bash command reads meet (see `inspectReads`), computed once per call. */
  private async readFindings(call: Call): Promise<ReadFindings | undefined> {
    const bash = await this.classify(call);
    if (!bash) return undefined;
    call.reads ??= inspectReads(bash.reads, {
      workspace: this.workspace,
      cwd: call.query.cwd,
      projectDir: this.projectDir,
      homeDir: this.homeDir,
      deny: this.lists.deny,
      ask: this.lists.ask,
    });
    return call.reads;
  }

  /** What the files a Bash command writes meet (see `inspectWrites`), computed once per call. */
  private async writeFindings(call: Call): Promise<WriteFindings | undefined> {
    const bash = await this.classify(call);
    if (!bash) return undefined;
    call.writes ??= inspectWrites(bash.writes, {
      workspace: this.workspace,
      cwd: call.query.cwd,
      projectDir: this.projectDir,
      homeDir: this.homeDir,
      deny: this.lists.deny,
      ask: this.lists.ask,
    });
    return call.writes;
  }

  /** Step 3: what no hook may approve. */
  private async boundary(call: Call): Promise<PermissionVerdict | undefined> {
    const { tool } = call;
    const reads = await this.readFindings(call);
    // In the OS sandbox with every Read rule carried into it (auto-allow stays on only then), the kernel
    // keeps denied files unreadable whatever path the command computes or walks.
    const enforced = this.sandboxAutoAllows?.(call.query.input) === true;
    const lifted = {
      ...reads,
      ...(enforced ? { unknown: undefined, deniedBelow: undefined, unchecked: undefined } : {}),
      ...((await this.userAllowsEveryCommand(call)) ? { outside: undefined } : {}),
    };
    const readBoundary = reads && readBoundaryVerdict(lifted, this.workspace, this.currentMode);
    if (readBoundary) return readBoundary;
    if ((tool.kind === 'read' || tool.kind === 'edit') && this.currentMode !== 'bypassPermissions') {
      const outside = call.paths.find((file) => !this.workspace.contains(file));
      if (outside !== undefined) {
        const verb = tool.kind === 'edit' ? 'write to' : 'read from';
        return {
          behavior: 'ask',
          message: `Claude requested permissions to ${verb} ${outside}, but you haven't granted it yet.`,
          source: 'workspace boundary',
          hookMayDecide: false,
          cause: { kind: 'boundary', boundary: 'workspace' },
          suggestions: [outsideSuggestion(tool.kind, outside)],
        };
      }
    }
    const removal = (await this.classify(call))?.protectedRemovals[0];
    if (removal !== undefined) {
      return {
        behavior: 'ask',
        message: `rm in '${removal}' needs approval: it would remove the filesystem root, the home directory or a working directory of this session, which no rule or hook can approve.`,
        source: 'protected path',
        hookMayDecide: false,
        cause: { kind: 'boundary', boundary: 'protected_removal' },
      };
    }
    const written = await this.protectedWrite(call);
    if (written !== undefined) return protectedWriteVerdict(written);
    const writes = await this.writeFindings(call); // in the sandbox with auto-allow, the kernel enforces every Write rule
    return writes && writeBoundaryVerdict(writes, this.currentMode, enforced);
  }

  /**
   * A write that reaches a protected path (`ProtectedPaths`: hookloop's configuration, git's), by
   * real path, from a file tool or any path of the Bash classification's `writes`; or a Bash write
   * whose destination cannot be known before the command runs, which could be one of them.
   */
  private async protectedWrite(call: Call): Promise<ProtectedHit | { readonly unknown: string } | undefined> {
    if (call.tool.kind === 'edit') {
      for (const file of call.paths) {
        const hit = this.protectedPaths.hit(file, { replacesDirectories: false });
        if (hit) return hit;
      }
      return undefined;
    }
    for (const write of (await this.classify(call))?.writes ?? []) {
      // A program hookloop does not read may write any path its words name (`sort -o F`, `tar -C D`);
      // beyond those, an unknown program is the mode's business (and the sandbox's).
      if (write.kind === 'program' && write.path === undefined) {
        const hit = (write.mentions ?? [])
          .map((file) => this.protectedPaths.hit(file, { replacesDirectories: false, byInode: false }))
          .find((found) => found !== undefined);
        if (hit) return hit;
        continue;
      }
      if (write.place === 'unknown' || write.path === undefined || !path.isAbsolute(write.path)) {
        // The sandbox keeps the configuration read-only wherever the path leads.
        if (this.runsSandboxed?.(call.query.input) === true) continue;
        return { unknown: write.path ?? call.command ?? '' };
      }
      const hit = this.protectedPaths.hit(write.path, { replacesDirectories: true });
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * Whether the user's own settings (or command line) allow every Bash command with a bare `Bash`
   * rule, and this call is a Bash command hookloop can read: then, as in Claude Code 2.1.328, its
   * reads and writes outside the working directories need no approval of their own (`cat ~/x`,
   * `rm -rf ~/scratch`, `cp a ../b`). A rule added during the session (a hook's
   * `updatedPermissions`, an approval's "always") does not count; neither does a hook's allow or a
   * mode. Deny and ask rules, hookloop's and git's configuration, code-running files and protected
   * removals are decided before and stay in force.
   */
  private async userAllowsEveryCommand(call: Call): Promise<boolean> {
    if (call.tool.kind !== 'bash' || call.command === undefined || this.currentMode === 'plan') return false;
    const bare = this.lists.allow.some(
      (rule) =>
        rule.toolName === call.tool.name && rule.specifier === undefined && !this.sessionRules.has(rule),
    );
    return bare && (await bashCommandIsKnown(call.command));
  }

  /**
   * For search tools (Grep, Glob): whether a file they found may be searched and shown. Checked per
   * file before it is read: its real path is in the workspace or under a path this call was
   * allowed to search (the boundary checked it, or a person approved it; any path in
   * bypassPermissions), and no deny or ask rule covers reading it. Denied files therefore never
   * show up as a match, a count or an error. Never throws.
   */
  searchFilter(query: PermissionQuery): (file: string) => Promise<boolean> {
    const call = this.describe(query);
    const roots = call.paths.map(realpathLoose);
    const anywhere = this.currentMode === 'bypassPermissions';
    // Rules without a specifier are about the call, which got past them; an ask rule that covers the
    // call's own paths was approved with it. Every other deny or ask rule hides the files it covers.
    const fileRules = (async () => {
      const rules = [...this.lists.deny];
      for (const rule of this.lists.ask) if (!(await this.matches(rule, call, 'any'))) rules.push(rule);
      return rules.filter((rule) => rule.specifier !== undefined);
    })();
    return async (file) => {
      const real = realpathLoose(file);
      if (!anywhere && !this.workspace.contains(real) && !roots.some((root) => isSameOrInside(real, root)))
        return false;
      const options = {
        flavour: 'any' as const,
        kind: 'read' as const,
        filePaths: [path.resolve(file)],
        homeDir: this.homeDir,
      };
      for (const rule of await fileRules) {
        try {
          if (await matchesRule(rule, call.tool.name, {}, query.cwd, this.projectDir, options)) return false;
        } catch {
          return false;
        }
      }
      return true;
    };
  }

  private async readOnly(call: Call): Promise<boolean> {
    if (call.tool.kind === 'bash') return (await this.classify(call))?.readOnly ?? false;
    return call.tool.readOnly;
  }

  /** Step 7. */
  private async byMode(call: Call): Promise<PermissionVerdict> {
    const mode = this.currentMode;
    const { tool } = call;
    if (mode === 'bypassPermissions')
      return { behavior: 'allow', source: 'mode bypassPermissions', cause: { kind: 'mode', mode } };
    const bash = await this.classify(call);
    if (bash ? bash.readOnly : tool.kind === 'read' || tool.readOnly)
      return { behavior: 'allow', source: 'read-only', cause: { kind: 'read_only' } };
    if (tool.kind === 'bash' && this.sandboxAutoAllows?.(call.query.input) === true)
      return { behavior: 'allow', source: 'sandbox', cause: { kind: 'sandbox' } };
    if (mode === 'acceptEdits' && (bash ? bash.editsInsideWorkspace : tool.kind === 'edit'))
      return { behavior: 'allow', source: 'mode acceptEdits', cause: { kind: 'mode', mode } };
    if (mode === 'dontAsk') return dontAskDenial(tool.name);
    const message = bash?.reason ?? askMessage(call);
    const suggestions = permissionSuggestions(call, bash);
    return {
      behavior: 'ask',
      message,
      source: `mode ${mode}`,
      hookMayDecide: true,
      cause: { kind: 'mode', mode },
      ...(suggestions.length > 0 ? { suggestions } : {}),
    };
  }
}

/**
 * What Claude Code 2.1.328 proposes for a file outside the working directories (measured): a write
 * adds the file's folder as a working directory; a read adds a session rule for that folder only
 * (`Read(//abs/dir/**)`, the `//` marking an absolute path), so it does not become writable.
 */
function outsideSuggestion(kind: 'read' | 'edit', file: string): unknown {
  const folder = path.dirname(file);
  if (kind === 'edit') return { type: 'addDirectories', directories: [folder], destination: 'session' };
  return {
    type: 'addRules',
    rules: [{ toolName: 'Read', ruleContent: `/${folder}/**` }],
    behavior: 'allow',
    destination: 'session',
  };
}
