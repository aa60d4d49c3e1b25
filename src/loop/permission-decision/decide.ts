import path from 'node:path';
import { describeError } from '../../errors.js';
import type { HandlerOutcome } from '../../hooks/handler.js';
import type { ToolCall } from '../../messages/messages.js';
import { PermissionPolicy, ruleForCall } from '../../permissions/policy.js';
import type { TaintChange } from '../../permissions/session-taint.js';
import type { ApprovalAnswer, PermissionVerdict } from '../../permissions/types.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { realpathLoose } from '../../tools/workspace.js';
import {
  approverDecision,
  decidingHook,
  policyDecision,
  type DecidingHook,
  type PermissionDecisionRecord,
} from './report.js';
import { notifyApproval } from './events.js';
import { fireHook, type RunContext } from '../run-context.js';
import { USER_REJECTED_RESULT } from '../hook-text.js';

type Input = Readonly<Record<string, unknown>>;

/** What the PreToolUse hooks recommended, which the policy weighs (a hook allow never beats a rule or boundary). */
export interface HookRecommendation {
  readonly decision: 'allow' | 'ask' | undefined;
  readonly reason: string | undefined;
  /** The PreToolUse handler whose answer this is, for the PermissionDecision record. */
  readonly by?: DecidingHook;
}

/**
 * What the merged PreToolUse answer recommends to the policy: its `allow` or `ask` (a deny or defer
 * never gets here) with its reason, and the handler that gave it (first in merge order).
 */
export function hookRecommendation(pre: {
  readonly decision?: string;
  readonly reason?: string;
  readonly outcomes: readonly HandlerOutcome[];
}): HookRecommendation {
  const decision = pre.decision === 'allow' || pre.decision === 'ask' ? pre.decision : undefined;
  const by = decidingHook('PreToolUse', pre.outcomes, decision);
  return { decision, reason: pre.reason, ...(by ? { by } : {}) };
}

/**
 * A checked input, the policy's verdict on it and the real paths of the files it names as they were
 * when the policy judged them (see `ToolContext.approvedPaths`), or why the input is not acceptable.
 */
export type CheckedInput =
  | {
      readonly ok: true;
      readonly input: Input;
      readonly verdict: PermissionVerdict;
      readonly realPaths: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

/**
 * The one check every input goes through before it may run — the model's, a PreToolUse
 * `updatedInput`, a PermissionRequest `updatedInput` (a rewrite is checked like the model's own input): validated with the
 * tool's own schema and normalized (`updated` only; the model's input was validated in prepare),
 * deep-copied and frozen, then evaluated by the whole policy (deny/ask rules, workspace boundary,
 * protected configuration, plan mode, the mode). The call id and the tool never change: a rewrite
 * is only ever an input for this same call. Never throws.
 */
export async function checkInput(
  run: RunContext,
  tool: AnyTool,
  input: Input,
  hook: HookRecommendation,
  updated?: Record<string, unknown>,
): Promise<CheckedInput> {
  let checkedInput = input;
  if (updated !== undefined) {
    const checked = run.tools.check(tool, updated, run.state);
    if (!checked.ok) return { ok: false, error: `updatedInput rejected: ${checked.error}` };
    checkedInput = checked.input;
  }
  const cwd = run.state.cwd;
  const realPaths = namedPaths(tool, checkedInput, cwd).map(realpathLoose);
  const verdict = await run.policy.evaluate({
    tool,
    input: checkedInput,
    cwd,
    hookDecision: hook.decision,
    ...(hook.reason !== undefined ? { hookReason: hook.reason } : {}),
  });
  return { ok: true, input: checkedInput, verdict, realPaths };
}

/** The absolute paths a file tool's input names (none for other tools, or when `filePaths` throws). */
function namedPaths(tool: AnyTool, input: Input, cwd: string): string[] {
  if (tool.kind !== 'edit' && tool.kind !== 'read') return [];
  try {
    return (tool.filePaths?.(input, { cwd }) ?? []).map((file) => path.resolve(cwd, file));
  } catch {
    return [];
  }
}

/**
 * `byHook`: a PermissionRequest hook refused. `byClassifier`: refused by auto mode's stand-in for
 * Claude Code's classifier (the dontAsk refusal of a run in `autoMode`), the only refusal that fires
 * PermissionDenied, as in Claude Code (not for rule, hook, PermissionRequest or dontAsk denials).
 * `ask`: nobody has decided yet; the next phase (PermissionRequest hooks, then the approver) must.
 * `record`: who settled an allowed or denied call and why (reported once, see `reportDecision`).
 */
export type Permission =
  | { kind: 'allowed'; input: Input; realPaths: readonly string[]; record: PermissionDecisionRecord }
  | {
      kind: 'denied';
      message: string;
      interrupt?: boolean;
      byHook?: boolean;
      byClassifier?: boolean;
      record: PermissionDecisionRecord;
    }
  | {
      kind: 'ask';
      input: Input;
      verdict: Extract<PermissionVerdict, { behavior: 'ask' }>;
      realPaths: readonly string[];
    }
  // The decision is left for later (a PermissionRequest hook's `defer`, the approver's `later`): the call waits, see session/pending-calls.ts.
  | { kind: 'pending'; input: Input; reason: 'permission_request' | 'approver'; message: string };

/**
 * The policy's own verdict on a checked input: allow and deny are final, `ask` goes on to the hooks
 * and the approver. `hook` names the PreToolUse handler when its allow is what the policy followed.
 */
export function policyVerdict(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  checked: Extract<CheckedInput, { ok: true }>,
  hook?: HookRecommendation,
): Permission {
  const { input, verdict, realPaths } = checked;
  const mode = run.policy.mode;
  run.emit({
    type: 'permission',
    toolName: tool.name,
    toolUseId: call.id,
    behavior: verdict.behavior,
    source: verdict.source,
  });
  if (verdict.behavior === 'allow')
    return { kind: 'allowed', input, realPaths, record: policyDecision(verdict, mode, 'allow', hook?.by) };
  if (verdict.behavior === 'deny')
    return {
      kind: 'denied',
      message: verdict.message,
      ...(run.autoMode && verdict.source === 'mode dontAsk' ? { byClassifier: true } : {}),
      record: policyDecision(verdict, mode, 'deny'),
    };
  return { kind: 'ask', input, verdict, realPaths };
}

/**
 * PermissionRequest hooks on an `ask` (unless the ask came from a PreToolUse hook, which the
 * reference sends straight to the user; past a hard boundary — workspace, plan mode — only their
 * deny counts). A PermissionRequest `allow` with `updatedInput` goes through {@link checkInput}
 * again: the rewrite is allowed only when the hook could have approved it as it stands; when it
 * needs what no hook may give (an ask past a boundary, protected configuration) it stays an `ask`
 * for the approver — a person — and a deny stays a deny. The input approved is the input that runs.
 */
export async function askPermissionHooks(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  asking: Extract<Permission, { kind: 'ask' }>,
  hook: HookRecommendation,
): Promise<Permission> {
  const { input, verdict } = asking;
  if (hook.decision === 'ask') return asking;
  const request = await fireHook(run, 'PermissionRequest', {
    tool_name: tool.name,
    tool_input: input as Record<string, unknown>,
    ...(verdict.suggestions ? { permission_suggestions: [...verdict.suggestions] } : {}),
    ...(tool.mcpServer ? { mcp_server: { name: tool.mcpServer.name, source: tool.mcpServer.source } } : {}),
  });
  const by = decidingHook('PermissionRequest', request.outcomes, request.behavior);
  const byRequest = (decision: 'allow' | 'deny', reason?: string): PermissionDecisionRecord => ({
    decision,
    decidedBy: 'hook',
    mode: run.policy.mode,
    policySource: verdict.source,
    ...(by ? { hook: by } : {}),
    ...(reason !== undefined ? { reason } : {}),
  });
  if (request.behavior === 'deny') {
    const message = request.message ?? verdict.message;
    return {
      kind: 'denied',
      message,
      byHook: true,
      ...(request.interrupt ? { interrupt: true } : {}),
      record: byRequest('deny', message),
    };
  }
  if (request.behavior === 'defer')
    return {
      kind: 'pending',
      input,
      reason: 'permission_request',
      message: request.message ?? verdict.message,
    };
  if (request.behavior !== 'allow') return asking;
  if (!verdict.hookMayDecide) {
    run.emit({
      type: 'warning',
      text: `PermissionRequest hook allowed ${tool.name}, but ${verdict.source} does not let hooks approve it; the allow was ignored`,
    });
    return asking;
  }
  if (request.updatedInput === undefined)
    return hookApproved(run, call, tool, asking, request.updatedPermissions, byRequest('allow'));
  const rewritten = await checkInput(run, tool, input, hook, request.updatedInput);
  if (!rewritten.ok) {
    const message = `PermissionRequest hook: ${rewritten.error}`;
    return {
      kind: 'denied',
      message,
      byHook: true,
      record: {
        decision: 'deny',
        decidedBy: 'validation',
        mode: run.policy.mode,
        reason: message,
        ...(by ? { hook: by } : {}),
      },
    };
  }
  run.emit({
    type: 'input_rewritten',
    toolName: tool.name,
    toolUseId: call.id,
    by: 'PermissionRequest',
    input: rewritten.input,
    ...(by ? { hook: by } : {}),
  });
  const again = rewritten.verdict;
  run.emit({
    type: 'permission',
    toolName: tool.name,
    toolUseId: call.id,
    behavior: again.behavior,
    source: `${again.source} (PermissionRequest updatedInput)`,
  });
  if (again.behavior === 'deny')
    return { kind: 'denied', message: again.message, record: policyDecision(again, run.policy.mode, 'deny') };
  // The hook's allow covers what it was entitled to decide; anything more is a person's call.
  if (again.behavior === 'allow' || again.hookMayDecide)
    return hookApproved(run, call, tool, rewritten, request.updatedPermissions, byRequest('allow'));
  return { kind: 'ask', input: rewritten.input, verdict: again, realPaths: rewritten.realPaths };
}

function hookApproved(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  checked: { input: Input; realPaths: readonly string[] },
  updatedPermissions: readonly unknown[],
  record: PermissionDecisionRecord,
): Permission {
  applyUpdatedPermissions(run, updatedPermissions);
  run.emit({
    type: 'permission',
    toolName: tool.name,
    toolUseId: call.id,
    behavior: 'allow',
    source: 'PermissionRequest hook',
  });
  return { kind: 'allowed', input: checked.input, realPaths: checked.realPaths, record };
}

/**
 * The approver (a person on a TTY, after a Notification; headless: deny) decides an ask nobody
 * else decided; `always` adds a session allow rule. An ask no person may lift stays a deny.
 */
export async function askApprover(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  asking: Extract<Permission, { kind: 'ask' }>,
): Promise<Exclude<Permission, { kind: 'ask' }>> {
  const { input, verdict, realPaths } = asking;
  const mode = run.policy.mode;
  if (verdict.humanMayDecide === false)
    return { kind: 'denied', message: verdict.message, record: policyDecision(verdict, mode, 'deny') };
  let answer: ApprovalAnswer;
  let updatedInput: Record<string, unknown> | undefined;
  let interrupt = false;
  if (run.approver.awaitsHuman === true) await notifyApproval(run, tool.name);
  // The rule `always` adds, shown in the question so the user knows what they allow from now on.
  const alwaysRule = ruleForCall(tool, input);
  let message = verdict.message;
  try {
    const given = await run.approver.approve({
      toolName: tool.name,
      input,
      message: verdict.message,
      signal: run.signal,
      alwaysRule,
      toolUseId: call.id,
    });
    if (typeof given !== 'object') answer = given;
    else if (given.answer === 'deny') {
      answer = 'deny';
      message = given.message;
      interrupt = given.interrupt === true;
    } else {
      answer = 'allow';
      updatedInput = given.updatedInput;
    }
  } catch {
    answer = 'deny';
  }
  if (answer === 'later') return { kind: 'pending', input, reason: 'approver', message: verdict.message };
  run.emit({
    type: 'permission',
    toolName: tool.name,
    toolUseId: call.id,
    behavior: answer === 'deny' ? 'deny' : 'allow',
    source: 'approver',
  });
  // A person's "no" reads as such to the model; a headless approver's refusal keeps the policy's reason (or the approver's own message).
  if (answer === 'deny')
    return {
      kind: 'denied',
      message:
        run.approver.awaitsHuman === true && message === verdict.message ? USER_REJECTED_RESULT : message,
      ...(interrupt ? { interrupt: true } : {}),
      record: approverDecision(verdict, mode, 'deny'),
    };
  if (answer === 'always') run.policy.addSessionRule('allow', alwaysRule);
  if (updatedInput !== undefined) return approvedRewrite(run, call, tool, asking, updatedInput);
  if (verdict.taint) noteTaint(run, PermissionPolicy.trustTaint(verdict.taint));
  return { kind: 'allowed', input, realPaths, record: approverDecision(verdict, mode, 'allow') };
}

/**
 * An approver's allow with its own input (the Agent SDK's `canUseTool` answering `updatedInput`):
 * the rewrite gets the one check every input gets, so a deny rule, the boundary or plan mode still
 * refuses it; what the rewritten input would ask about, the approver is taken to have answered.
 */
async function approvedRewrite(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  asking: Extract<Permission, { kind: 'ask' }>,
  updatedInput: Record<string, unknown>,
): Promise<Exclude<Permission, { kind: 'ask' }>> {
  const mode = run.policy.mode;
  const rewritten = await checkInput(
    run,
    tool,
    asking.input,
    { decision: undefined, reason: undefined },
    updatedInput,
  );
  if (!rewritten.ok) {
    const message = `Approver: ${rewritten.error}`;
    return {
      kind: 'denied',
      message,
      record: { decision: 'deny', decidedBy: 'validation', mode, reason: message },
    };
  }
  run.emit({
    type: 'input_rewritten',
    toolName: tool.name,
    toolUseId: call.id,
    by: 'approver',
    input: rewritten.input,
  });
  const again = rewritten.verdict;
  if (again.behavior === 'deny')
    return { kind: 'denied', message: again.message, record: policyDecision(again, mode, 'deny') };
  if (again.behavior === 'ask' && again.humanMayDecide === false)
    return { kind: 'denied', message: again.message, record: policyDecision(again, mode, 'deny') };
  return {
    kind: 'allowed',
    input: rewritten.input,
    realPaths: rewritten.realPaths,
    record: approverDecision(asking.verdict, mode, 'allow'),
  };
}

/**
 * A person's decision from `--approve` (`AgentSession.resume`, deferred-approval.ts) answers an ask
 * as the approver would have, without asking anyone; what no person may approve stays refused.
 */
export function approvedByDecision(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  asking: Extract<Permission, { kind: 'ask' }>,
): Exclude<Permission, { kind: 'ask' }> {
  const { input, verdict, realPaths } = asking;
  const refused = verdict.humanMayDecide === false;
  const mode = run.policy.mode;
  run.emit({
    type: 'permission',
    toolName: tool.name,
    toolUseId: call.id,
    behavior: refused ? 'deny' : 'allow',
    source: 'approval of a pending call',
  });
  if (!refused && verdict.taint) noteTaint(run, PermissionPolicy.trustTaint(verdict.taint));
  return refused
    ? { kind: 'denied', message: verdict.message, record: policyDecision(verdict, mode, 'deny') }
    : { kind: 'allowed', input, realPaths, record: approverDecision(verdict, mode, 'allow') };
}

/**
 * Records a change to the session's taint (a call's writes, a person's approval of what it runs)
 * and, when it changed anything, tells observers, so that the transcript keeps it for a resume.
 */
export function noteTaint(run: RunContext, change: TaintChange): void {
  if (run.policy.noteTaint(change)) run.emit({ type: 'session_taint', change });
}

/**
 * PermissionRequest `updatedPermissions` (Claude Code's permission updates), applied to this
 * session whatever `destination` says (hookloop writes no settings file for a hook):
 * - `addRules`: session rules of `behavior` (default `allow`). They take effect at their step of
 *   the order, so an added allow rule never beats a deny rule, the workspace boundary or hookloop's
 *   configuration.
 * - `removeRules` / `replaceRules`: only rules added during the session are removed or replaced;
 *   the settings' rules stay (a hook cannot drop a deny rule the user wrote — as in Claude Code,
 *   whose `session` destination does not hold them).
 * - `setMode`: `default`, `acceptEdits`, `plan` and `dontAsk` take effect for the following calls;
 *   `bypassPermissions` is refused (it would lift the workspace boundary, which no hook may do;
 *   Claude Code 2.1.328 did not switch to it either).
 * - `addDirectories` / `removeDirectories`: ignored (the working directories are fixed when the
 *   run starts; stricter than Claude Code, which adds them).
 * Everything refused or malformed is one warning; nothing here throws.
 */
function applyUpdatedPermissions(run: RunContext, updates: readonly unknown[]): void {
  const warn = (text: string) =>
    run.emit({ type: 'warning', text: `PermissionRequest hook: updatedPermissions ${text}` });
  for (const update of updates) {
    const entry = (typeof update === 'object' && update !== null ? update : {}) as {
      type?: unknown;
      rules?: unknown;
      behavior?: unknown;
      mode?: unknown;
    };
    const behavior = entry.behavior === undefined ? 'allow' : entry.behavior;
    const rules = Array.isArray(entry.rules) ? entry.rules.flatMap(ruleText) : undefined;
    const ruleEntry =
      entry.type === 'addRules' || entry.type === 'removeRules' || entry.type === 'replaceRules';
    if (
      ruleEntry &&
      (rules === undefined || (behavior !== 'allow' && behavior !== 'deny' && behavior !== 'ask'))
    ) {
      warn(
        `${String(entry.type)} entry ignored: it needs "rules" (a list of {toolName, ruleContent}) and a "behavior" of allow, deny or ask`,
      );
      continue;
    }
    try {
      if (entry.type === 'addRules')
        for (const text of rules ?? []) run.policy.addSessionRule(behavior as 'allow', text);
      else if (entry.type === 'removeRules' || entry.type === 'replaceRules') {
        const target =
          entry.type === 'replaceRules' ? run.policy.sessionRulesOf(behavior as 'allow') : (rules ?? []);
        const kept = run.policy.removeSessionRules(behavior as 'allow', target);
        if (entry.type === 'replaceRules')
          for (const text of rules ?? []) run.policy.addSessionRule(behavior as 'allow', text);
        else if (kept.length > 0)
          warn(
            `removeRules: ${kept.join(', ')} not removed: only rules added during this session can be removed, never those of the settings`,
          );
      } else if (entry.type === 'setMode') {
        if (
          entry.mode === 'default' ||
          entry.mode === 'acceptEdits' ||
          entry.mode === 'plan' ||
          entry.mode === 'dontAsk'
        ) {
          // The policy owns the mode; payloads and transcripts read it from there.
          run.policy.setMode(entry.mode);
        } else
          warn(
            `setMode to ${JSON.stringify(entry.mode)} ignored: a hook may switch to default, acceptEdits, plan or dontAsk, never to bypassPermissions`,
          );
      } else if (entry.type === 'addDirectories' || entry.type === 'removeDirectories') {
        warn(
          `${entry.type} ignored: the working directories are fixed when the run starts (start hookloop with --add-dir)`,
        );
      } else {
        warn(`entry of type ${JSON.stringify(entry.type)} is not supported and was ignored`);
      }
    } catch (error) {
      warn(`rule ignored: ${describeError(error)}`);
    }
  }
}

/** `{toolName, ruleContent}` as rule text (`Bash(npm test)`), or nothing when malformed. */
function ruleText(rule: unknown): string[] {
  const fields = (typeof rule === 'object' && rule !== null ? rule : {}) as {
    toolName?: unknown;
    ruleContent?: unknown;
  };
  if (typeof fields.toolName !== 'string') return [];
  return [
    typeof fields.ruleContent === 'string' && fields.ruleContent !== ''
      ? `${fields.toolName}(${fields.ruleContent})`
      : fields.toolName,
  ];
}
