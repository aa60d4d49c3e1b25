import type { HookEventName } from '../../hooks/event-names.js';
import type { HandlerOrigin } from '../../hooks/handler.js';
import type { PermissionMode } from '../../permissions/types.js';

/** The hook handler that decided a call: its event, type, command (or callback name), file and place in it. */
export interface DecidingHook {
  readonly event: HookEventName;
  readonly type: HandlerOrigin['transport'];
  /** The command as written in settings, the URL of an http hook, or the callback's name. */
  readonly name: string;
  /** The settings file, or `callback`. */
  readonly source: string;
  /** `<file>: hooks.PreToolUse[0].hooks[1]`, for settings hooks. */
  readonly location?: string;
}

/**
 * Who settled a tool call, and why, as data (the PermissionDecision event, `stream-json`, spans):
 * - `decidedBy`: `rule`, `mode`, `boundary`, `read_only`, `sandbox` (the policy alone), `hook`
 *   (a PreToolUse or PermissionRequest hook: `hook` names it), `approver` (a person or the
 *   configured approver; headless runs deny), `validation` (a hook's `updatedInput` was rejected);
 * - `rule`, `boundary`: the policy step, when it was one (for `approver`: what made the policy ask);
 * - `reason`: the text the model gets for a denial, or the deciding hook's reason;
 * - `mode`: the permission mode the call was judged in; `policySource`: the policy's log label;
 * - `taintedFiles` (hookloop extension): the files the call runs that the session wrote, when that
 *   is why the policy asked; `hookTaintedFiles`: the PreToolUse command hooks of the call whose
 *   command runs a file the session wrote, with those files (reported; hooks are never blocked for it).
 */
export interface PermissionDecisionRecord {
  readonly decision: 'allow' | 'deny';
  readonly decidedBy:
    'rule' | 'mode' | 'boundary' | 'read_only' | 'sandbox' | 'hook' | 'approver' | 'validation';
  readonly mode: PermissionMode;
  readonly reason?: string;
  readonly rule?: { readonly list: 'allow' | 'ask' | 'deny'; readonly text: string; readonly file?: string };
  readonly boundary?: 'workspace' | 'protected_removal' | 'configuration' | 'read_rules' | 'session_taint';
  readonly hook?: DecidingHook;
  readonly policySource?: string;
  readonly taintedFiles?: readonly string[];
  readonly hookTaintedFiles?: readonly HookTaintedFiles[];
}

/** A command hook that runs files the session wrote: its command as written in settings, and those files (real paths). */
export interface HookTaintedFiles {
  readonly hook: string;
  readonly files: readonly string[];
}
