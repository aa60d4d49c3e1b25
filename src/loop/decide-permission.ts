import path from 'node:path';
import { mergePermissionRequest } from '../hooks/merge.js';
import { describeError } from '../errors.js';
import type { ToolCall } from '../messages/messages.js';
import { ruleForCall } from '../permissions/policy.js';
import type { PermissionVerdict } from '../permissions/types.js';
import type { AnyTool } from '../tools/define-tool.js';
import { realpathLoose } from '../tools/workspace.js';
import { approverDecision, decidingHook, policyDecision, reportDecision, type DecidingHook, type PermissionDecisionRecord } from './permission-decision.js';
import { notifyApproval } from './permission-events.js';
import { fireHook, type RunContext } from './run-context.js';

type Input = Readonly<Record<string, unknown>>;

/** What the PreToolUse hooks recommended, which the policy weighs (a hook allow never beats a rule or boundary). */
export interface HookRecommendation {
  readonly decision: 'allow' | 'ask' | undefined;
  readonly reason: string | undefined;
  /** The PreToolUse handler whose answer this is, for the PermissionDecision record. */
  readonly by?: DecidingHook;
}

/**
 * A checked input, the policy's verdict on it and the real paths of the files it names as they were
 * when the policy judged them (see `ToolContext.approvedPaths`), or why the input is not acceptable.
 */
export type CheckedInput = { readonly ok: true; readonly input: Input; readonly verdict: PermissionVerdict; readonly realPaths: readonly string[] } | { readonly ok: false; readonly error: string };

/**
 * The one check every input goes through before it may run — the model's, a PreToolUse
 * `updatedInput`, a PermissionRequest `updatedInput` (DESIGN invariant 3): validated with the
 * tool's own schema and normalized (`updated` only; the model's input was validated in prepare),
 * deep-copied and frozen, then evaluated by the whole policy (deny/ask rules, workspace boundary,
 * protected configuration, plan mode, the mode). The call id and the tool never change: a rewrite
 * is only ever an input for this same call. Never throws.
 */
export async function checkInput(run: RunContext, tool: AnyTool, input: Input, hook: HookRecommendation, updated?: Record<string, unknown>): Promise<CheckedInput> {
  let checkedInput = input;
  if (updated !== undefined) {
    const checked = run.tools.check(tool, updated, run.state);
    if (!checked.ok) return { ok: false, error: `updatedInput rejected: ${checked.error}` };
    checkedInput = checked.input;
  }
  const cwd = run.state.cwd;
  const realPaths = namedPaths(tool, checkedInput, cwd).map(realpathLoose);
  const verdict = await run.policy.evaluate({ tool, input: checkedInput, cwd, hookDecision: hook.decision, ...(hook.reason !== undefined ? { hookReason: hook.reason } : {}) });
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
 */
export type Permission = { kind: 'allowed'; input: Input; realPaths: readonly string[] } | { kind: 'denied'; message: string; interrupt?: boolean; byHook?: boolean; byClassifier?: boolean };

/**
 * Turns the policy's verdict on `input` into allowed or denied. An `ask` goes to PermissionRequest
 * hooks (unless the ask came from a PreToolUse hook, which the reference sends straight to the
 * user; past a hard boundary only their deny counts), then to the approver. A PermissionRequest
 * `allow` with `updatedInput` goes through {@link checkInput} again: the rewrite is allowed only
 * when the hook could have approved it as it stands; when it needs what no hook may give (an ask
 * past a boundary, protected configuration) it goes to the approver — a person — and a deny stays a
 * deny. The input approved is the input that runs.
 */
export async function decidePermission(run: RunContext, call: ToolCall, tool: AnyTool, checked: Extract<CheckedInput, { ok: true }>, hook: HookRecommendation): Promise<Permission> {
  const started = performance.now();
  const { permission, record } = await settle(run, call, tool, checked, hook);
  await reportDecision(run, call, tool.name, permission.kind === 'allowed' ? permission.input : checked.input, record, performance.now() - started);
  return permission;
}

/** A Permission and the record of who decided it. */
interface Settled {
  readonly permission: Permission;
  readonly record: PermissionDecisionRecord;
}

async function settle(run: RunContext, call: ToolCall, tool: AnyTool, checked: Extract<CheckedInput, { ok: true }>, hook: HookRecommendation): Promise<Settled> {
  const { input, verdict, realPaths } = checked;
  const mode = run.policy.mode;
  run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: verdict.behavior, source: verdict.source });
  if (verdict.behavior === 'allow') return { permission: { kind: 'allowed', input, realPaths }, record: policyDecision(verdict, mode, 'allow', hook.by) };
  if (verdict.behavior === 'deny') return { permission: { kind: 'denied', message: verdict.message, ...(run.autoMode && verdict.source === 'mode dontAsk' ? { byClassifier: true } : {}) }, record: policyDecision(verdict, mode, 'deny') };

  // The reference fires PermissionRequest for every ask except one a PreToolUse hook raised;
  // past a hard boundary (workspace, plan mode) only a deny from it counts.
  if (hook.decision !== 'ask') {
    const outcomes = await fireHook(run, 'PermissionRequest', { tool_name: tool.name, tool_input: input as Record<string, unknown>, ...(verdict.suggestions ? { permission_suggestions: [...verdict.suggestions] } : {}) }, tool.name);
    const request = mergePermissionRequest(outcomes);
    const by = decidingHook('PermissionRequest', outcomes, request.behavior);
    const byRequest = (decision: 'allow' | 'deny', reason?: string): PermissionDecisionRecord => ({ decision, decidedBy: 'hook', mode, policySource: verdict.source, ...(by ? { hook: by } : {}), ...(reason !== undefined ? { reason } : {}) });
    if (request.behavior === 'deny') {
      const message = request.message ?? verdict.message;
      return { permission: { kind: 'denied', message, byHook: true, ...(request.interrupt ? { interrupt: true } : {}) }, record: byRequest('deny', message) };
    }
    if (request.behavior === 'allow' && !verdict.hookMayDecide) {
      run.emit({ type: 'warning', text: `PermissionRequest hook allowed ${tool.name}, but ${verdict.source} does not let hooks approve it; the allow was ignored` });
    } else if (request.behavior === 'allow') {
      if (request.updatedInput === undefined) return { permission: hookApproved(run, call, tool, checked, request.updatedPermissions), record: byRequest('allow') };
      const rewritten = await checkInput(run, tool, input, hook, request.updatedInput);
      if (!rewritten.ok) {
        const message = `PermissionRequest hook: ${rewritten.error}`;
        return { permission: { kind: 'denied', message, byHook: true }, record: { decision: 'deny', decidedBy: 'validation', mode, reason: message, ...(by ? { hook: by } : {}) } };
      }
      run.emit({ type: 'input_rewritten', toolName: tool.name, toolUseId: call.id, by: 'PermissionRequest' });
      const again = rewritten.verdict;
      run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: again.behavior, source: `${again.source} (PermissionRequest updatedInput)` });
      if (again.behavior === 'deny') return { permission: { kind: 'denied', message: again.message }, record: policyDecision(again, mode, 'deny') };
      // The hook's allow covers what it was entitled to decide; anything more is a person's call.
      if (again.behavior === 'allow' || again.hookMayDecide) return { permission: hookApproved(run, call, tool, rewritten, request.updatedPermissions), record: byRequest('allow') };
      return askPerson(run, call, tool, rewritten.input, again, rewritten.realPaths);
    }
  }
  return askPerson(run, call, tool, input, verdict, realPaths);
}

function hookApproved(run: RunContext, call: ToolCall, tool: AnyTool, checked: { input: Input; realPaths: readonly string[] }, updatedPermissions: readonly unknown[]): Permission {
  applyUpdatedPermissions(run, updatedPermissions);
  run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: 'allow', source: 'PermissionRequest hook' });
  return { kind: 'allowed', input: checked.input, realPaths: checked.realPaths };
}

/** The approver (a person on a TTY; headless: deny) decides an ask; `always` adds a session allow rule. */
async function askPerson(run: RunContext, call: ToolCall, tool: AnyTool, input: Input, verdict: Extract<PermissionVerdict, { behavior: 'ask' }>, realPaths: readonly string[]): Promise<Settled> {
  const mode = run.policy.mode;
  if (verdict.humanMayDecide === false) return { permission: { kind: 'denied', message: verdict.message }, record: policyDecision(verdict, mode, 'deny') };
  let answer: Awaited<ReturnType<RunContext['approver']['approve']>>;
  if (run.approver.awaitsHuman === true) await notifyApproval(run, tool.name);
  // The rule `always` adds, shown in the question so the user knows what they allow from now on.
  const alwaysRule = ruleForCall(tool, input);
  try {
    answer = await run.approver.approve({ toolName: tool.name, input, message: verdict.message, signal: run.signal, alwaysRule });
  } catch {
    answer = 'deny';
  }
  run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: answer === 'deny' ? 'deny' : 'allow', source: 'approver' });
  if (answer === 'deny') return { permission: { kind: 'denied', message: verdict.message }, record: approverDecision(verdict, mode, 'deny') };
  if (answer === 'always') run.policy.addSessionRule('allow', alwaysRule);
  return { permission: { kind: 'allowed', input, realPaths }, record: approverDecision(verdict, mode, 'allow') };
}

/** `updatedPermissions` entries of type `addRules` become session rules; others are reported and ignored. */
function applyUpdatedPermissions(run: RunContext, updates: readonly unknown[]): void {
  for (const update of updates) {
    const entry = update as { type?: string; rules?: { toolName?: string; ruleContent?: string }[]; behavior?: 'allow' | 'deny' | 'ask' };
    if (entry.type === 'addRules' && Array.isArray(entry.rules)) {
      for (const rule of entry.rules) {
        if (typeof rule.toolName !== 'string') continue;
        const text = rule.ruleContent ? `${rule.toolName}(${rule.ruleContent})` : rule.toolName;
        try {
          run.policy.addSessionRule(entry.behavior ?? 'allow', text);
        } catch (error) {
          run.emit({ type: 'warning', text: `PermissionRequest hook: updatedPermissions rule ignored: ${describeError(error)}` });
        }
      }
    } else {
      run.emit({ type: 'warning', text: `PermissionRequest hook: updatedPermissions entry of type ${JSON.stringify(entry.type)} is not supported and was ignored` });
    }
  }
}
