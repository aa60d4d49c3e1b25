import type { AnyTool } from '../tools/define-tool.js';

/** Claude Code permission modes. `auto` is not offered: hookloop has no classifier. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Permission rules in Claude Code syntax, e.g. `Bash(npm test)`, `Bash(git:*)`, `Read(./secrets/**)`, `Write`. */
export interface PermissionRules {
  readonly allow: readonly string[];
  readonly ask: readonly string[];
  readonly deny: readonly string[];
}

/** One call as the policy sees it: input already normalized (absolute paths) and frozen. */
export interface PermissionQuery {
  readonly tool: AnyTool;
  readonly input: unknown;
  /** The session's current directory (Bash relative paths resolve against it). */
  readonly cwd: string;
  /** What PreToolUse hooks recommended; a hook `allow` never beats a deny or ask rule or the workspace boundary. */
  readonly hookDecision?: 'allow' | 'ask' | undefined;
  /** The deciding hook's `permissionDecisionReason`: with `ask`, it is the verdict's message (what the model sees if nobody approves). */
  readonly hookReason?: string | undefined;
}

/**
 * The policy's answer for one call.
 * - `allow`: run it. `source` says why, for the lifecycle log (e.g. `rule Bash(echo:*)`, `mode acceptEdits`, `hook`).
 * - `deny`: refuse with `message` as the error tool result (e.g. `Permission to use Bash with command touch x has been denied.`).
 * - `ask`: a human must approve. `message` is the tool result if nobody does (headless runs);
 *   `hookMayDecide` is false when the reason is a hard boundary (path outside the workspace) that
 *   PermissionRequest hooks must not approve; `suggestions` are Claude Code `permission_suggestions`.
 */
export type PermissionVerdict =
  | { readonly behavior: 'allow'; readonly source: string; readonly cause?: PolicyCause }
  | {
      readonly behavior: 'deny';
      readonly message: string;
      readonly source: string;
      readonly cause?: PolicyCause;
    }
  | {
      readonly behavior: 'ask';
      readonly message: string;
      readonly source: string;
      readonly cause?: PolicyCause;
      readonly hookMayDecide: boolean;
      /**
       * False when no one may approve (plan mode's read-only rule): PermissionRequest hooks still
       * fire, as in the reference, but only a deny from them counts, and no approver is asked.
       */
      readonly humanMayDecide?: boolean;
      readonly suggestions?: readonly unknown[];
      /**
       * Set when the ask is the session taint's (hookloop extension): the files (real paths) the
       * command runs that this session wrote, and whether a write of computed destination may be one.
       * A person's approval trusts them (`PermissionPolicy.trustTaint`) until they are written again.
       */
      readonly taint?: { readonly files: readonly string[]; readonly unknown: boolean };
    };

/**
 * Which step of the policy decided a verdict, as data (for the PermissionDecision event and
 * telemetry; `source` is the same thing as a log label):
 * - `rule`: the first matching rule of `list`, its text as written and `file`, the settings file
 *   (or `--allowedTools`, `session`) it came from when the run knows it;
 * - `mode`: the permission mode's default for the call (`plan` included);
 * - `boundary`: what no hook may approve: the workspace boundary, a protected removal
 *   (`rm` of `/`, home, a workspace root), a write reaching configuration, or a Bash read that
 *   cannot be checked against the Read rules (`read_rules`), or an allow rule's approval of a
 *   command that runs a file this session wrote (`session_taint`, a hookloop extension);
 * - `hook`: the PreToolUse hooks' recommendation; `read_only`: a read-only call; `sandbox`:
 *   Bash that runs in the OS sandbox with `autoAllowBashIfSandboxed`.
 */
export type PolicyCause =
  | {
      readonly kind: 'rule';
      readonly list: 'allow' | 'ask' | 'deny';
      readonly rule: string;
      readonly file?: string;
    }
  | { readonly kind: 'mode'; readonly mode: PermissionMode }
  | {
      readonly kind: 'boundary';
      readonly boundary: 'workspace' | 'protected_removal' | 'configuration' | 'read_rules' | 'session_taint';
    }
  | { readonly kind: 'hook' | 'read_only' | 'sandbox' };

/** The question put to a human (or a configured callback) when the policy says ask. */
export interface ApprovalRequest {
  readonly toolName: string;
  readonly input: unknown;
  readonly message: string;
  readonly signal: AbortSignal;
  /** The session allow rule an `always` answer adds (e.g. `Bash(npm test)`), to show the user. */
  readonly alwaysRule?: string;
  /** The call's id (`tool_use_id`), for approvers that report it (the permission prompt tool). */
  readonly toolUseId?: string;
}

/**
 * `always` allows this call and adds a session allow rule for calls like it. `later` (hookloop
 * extension): nobody decides now; the run ends `tool_deferred` with the call in `RunResult.pending`,
 * to be approved or denied from a later process (`--resume ID --approve ID`).
 */
export type ApprovalAnswer = 'allow' | 'deny' | 'always' | 'later';

/**
 * An approver's answer: one of {@link ApprovalAnswer}; a deny with the message the model reads
 * instead of the policy's (`interrupt: true` also ends the run, as a PermissionRequest hook's deny
 * with `interrupt` does); or an allow with `updatedInput`, which the loop checks like any rewrite
 * (the tool's schema, then the whole policy: a deny rule or the boundary still refuses it).
 */
export type ApprovalVerdict =
  | ApprovalAnswer
  | { readonly answer: 'deny'; readonly message: string; readonly interrupt?: boolean }
  | { readonly answer: 'allow'; readonly updatedInput: Record<string, unknown> };

/**
 * Decides calls the policy could not. Contract: resolves once per request; must not throw (a
 * throw counts as deny). The interactive approver asks on the TTY; the headless one denies.
 */
export interface Approver {
  approve(request: ApprovalRequest): Promise<ApprovalVerdict>;
  /**
   * True when `approve` waits for a person (the TTY prompt): the loop fires a Notification hook
   * (`permission_prompt`) before asking. Default false (headless: nobody to notify).
   */
  readonly awaitsHuman?: boolean;
}
