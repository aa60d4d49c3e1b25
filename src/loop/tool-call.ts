import { mergePermissionRequest, mergePostToolUse, mergePreToolUse, mergeCommon } from '../hooks/merge.js';
import { describeError } from '../errors.js';
import { toolResultMessage, type ToolCall, type ToolResultBlock, type ToolResultMessage } from '../messages/messages.js';
import { ToolFailure, type AnyTool } from '../tools/define-tool.js';
import { ruleForCall } from '../permissions/policy.js';
import type { PermissionVerdict } from '../permissions/types.js';
import { contextLabel, DEFERRED_BATCH_SKIPPED, postToolUseBlock, preToolUseError } from './hook-text.js';
import { notifyApproval, permissionDenied } from './permission-events.js';
import { fireHook, toolContext, type RunContext } from './run-context.js';

/** One call's way through the pipeline, as the batch needs it. */
export interface CallOutcome {
  /** The paired result: always present, whatever happened. */
  readonly result: ToolResultMessage;
  /** Labelled context texts for the system message after the results, in Pre, Post order. */
  readonly contexts: readonly string[];
  /** Set when a hook ended the run: `hook_stopped` (continue:false) or `aborted_tools` (PermissionRequest interrupt). */
  readonly stop?: 'hook_stopped' | 'aborted_tools';
  /** Set when a PreToolUse hook deferred the call: the run ends and reports it. */
  readonly deferred?: { readonly id: string; readonly name: string; readonly input: unknown };
  /** User texts to send after the batch's results (a PermissionDenied hook's `retry`). */
  readonly notes?: readonly string[];
  /** What PostToolBatch reports for this call: the model's original input, the model-visible response. */
  readonly batchEntry: { tool_name: string; tool_input: unknown; tool_use_id: string; tool_response: unknown };
}

type Input = Readonly<Record<string, unknown>>;

/**
 * Runs one tool call through the fixed pipeline: prepare → PreToolUse → permission policy →
 * PermissionRequest → (Notification) approver → PermissionDenied → handler (exactly once) →
 * PostToolUse / PostToolUseFailure. With `deferring` (an earlier call of the batch was deferred)
 * the call stops after PreToolUse: a hook may defer it too, but it never runs.
 * Never throws: every path ends in one paired result.
 */
export async function runToolCall(run: RunContext, call: ToolCall, options: { readonly deferring?: boolean } = {}): Promise<CallOutcome> {
  const prepared = await run.tools.prepare(call, toolContext(run));
  if (prepared.kind === 'settled') return finish(run, call, prepared.result, []);
  const { tool } = prepared;
  const contexts: string[] = [];

  const pre = mergePreToolUse(await fireHook(run, 'PreToolUse', { tool_name: tool.name, tool_input: prepared.input as Record<string, unknown>, tool_use_id: call.id, ...mcpServerOf(tool) }, tool.name));
  contexts.push(...pre.contexts.map((text) => contextLabel('PreToolUse', tool.name, text)));
  const stop = pre.stop ? ('hook_stopped' as const) : undefined;
  if (pre.decision === 'deny') return refuse(run, call, prepared.input, preToolUseError(tool.name, pre.reason ?? 'blocked'), contexts, stop);
  if (pre.decision === 'defer') {
    const result = toolResultMessage(call.id, tool.name, 'The call was deferred by a PreToolUse hook; it did not run.', true);
    return { ...finish(run, call, result, contexts), deferred: { id: call.id, name: tool.name, input: call.input } };
  }
  if (options.deferring) return finish(run, call, toolResultMessage(call.id, tool.name, DEFERRED_BATCH_SKIPPED, true), contexts);

  let input = prepared.input;
  if (pre.updatedInput) {
    const rewritten = rewrite(run, tool, pre.updatedInput);
    if (!rewritten.ok) return refuse(run, call, prepared.input, preToolUseError(tool.name, rewritten.error), contexts, stop);
    input = rewritten.input;
    run.emit({ type: 'input_rewritten', toolName: tool.name, toolUseId: call.id, by: 'PreToolUse' });
  }

  const hookDecision = pre.decision === 'allow' || pre.decision === 'ask' ? pre.decision : undefined;
  const permitted = await decidePermission(run, call, tool, input, hookDecision, pre.reason);
  if (permitted.kind === 'denied') {
    const notes = permitted.byHook ? [] : await permissionDenied(run, call, tool.name, input, permitted.message);
    return { ...refuse(run, call, input, permitted.message, contexts, permitted.interrupt ? 'aborted_tools' : stop), ...(notes.length > 0 ? { notes } : {}) };
  }
  input = permitted.input;

  const executed = await execute(run, call, tool, input);
  contexts.push(...executed.contexts);
  return finish(run, call, executed.result, contexts, executed.stop ?? stop, true, executed.output);
}

/** Re-validates a hook's rewrite against the tool's own schema; the call id and tool stay as they were (identity lock). */
function rewrite(run: RunContext, tool: AnyTool, updated: Record<string, unknown>): { ok: true; input: Input } | { ok: false; error: string } {
  const checked = run.tools.check(tool, updated, run.state);
  return checked.ok ? checked : { ok: false, error: `updatedInput rejected: ${checked.error}` };
}

/** `byHook`: a PermissionRequest hook refused (no PermissionDenied then: the hook already knows). */
type Permission = { kind: 'allowed'; input: Input } | { kind: 'denied'; message: string; interrupt?: boolean; byHook?: boolean };

/**
 * The policy decides first (deny > ask > hook allow > allow rules / mode). An `ask` goes to
 * PermissionRequest hooks (unless the reason is a hard boundary or the ask came from a PreToolUse
 * hook, which the reference sends straight to the user), then to the approver. The input approved
 * is the input that runs: a PermissionRequest rewrite is re-validated and frozen before it is used.
 */
async function decidePermission(run: RunContext, call: ToolCall, tool: AnyTool, input: Input, hookDecision: 'allow' | 'ask' | undefined, hookReason: string | undefined): Promise<Permission> {
  const verdict: PermissionVerdict = await run.policy.evaluate({ tool, input, cwd: run.state.cwd, hookDecision, ...(hookReason !== undefined ? { hookReason } : {}) });
  run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: verdict.behavior, source: verdict.source });
  if (verdict.behavior === 'allow') return { kind: 'allowed', input };
  if (verdict.behavior === 'deny') return { kind: 'denied', message: verdict.message };

  // The reference fires PermissionRequest for every ask except one a PreToolUse hook raised;
  // past a hard boundary (workspace, plan mode) only a deny from it counts.
  if (hookDecision !== 'ask') {
    const request = mergePermissionRequest(
      await fireHook(run, 'PermissionRequest', { tool_name: tool.name, tool_input: input as Record<string, unknown>, ...(verdict.suggestions ? { permission_suggestions: [...verdict.suggestions] } : {}) }, tool.name),
    );
    if (request.behavior === 'deny') return { kind: 'denied', message: request.message ?? verdict.message, byHook: true, ...(request.interrupt ? { interrupt: true } : {}) };
    if (request.behavior === 'allow' && !verdict.hookMayDecide) {
      run.emit({ type: 'warning', text: `PermissionRequest hook allowed ${tool.name}, but ${verdict.source} does not let hooks approve it; the allow was ignored` });
    } else if (request.behavior === 'allow') {
      let approved = input;
      if (request.updatedInput) {
        const rewritten = rewrite(run, tool, request.updatedInput);
        if (!rewritten.ok) return { kind: 'denied', message: `PermissionRequest hook: ${rewritten.error}`, byHook: true };
        approved = rewritten.input;
      }
      applyUpdatedPermissions(run, request.updatedPermissions);
      run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: 'allow', source: 'PermissionRequest hook' });
      return { kind: 'allowed', input: approved };
    }
  }

  if (verdict.humanMayDecide === false) return { kind: 'denied', message: verdict.message };
  let answer: Awaited<ReturnType<RunContext['approver']['approve']>>;
  if (run.approver.awaitsHuman === true) await notifyApproval(run, tool.name);
  try {
    answer = await run.approver.approve({ toolName: tool.name, input, message: verdict.message, signal: run.signal });
  } catch {
    answer = 'deny';
  }
  run.emit({ type: 'permission', toolName: tool.name, toolUseId: call.id, behavior: answer === 'deny' ? 'deny' : 'allow', source: 'approver' });
  if (answer === 'deny') return { kind: 'denied', message: verdict.message };
  if (answer === 'always') run.policy.addSessionRule('allow', ruleForCall(tool, input));
  return { kind: 'allowed', input };
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

/** Runs the handler exactly once, then PostToolUse (success) or PostToolUseFailure (failure). */
async function execute(run: RunContext, call: ToolCall, tool: AnyTool, input: Input): Promise<{ result: ToolResultMessage; contexts: string[]; stop?: 'hook_stopped'; output?: unknown }> {
  const started = performance.now();
  let output: unknown;
  try {
    output = await tool.handler(input, toolContext(run));
  } catch (error) {
    const message = error instanceof ToolFailure ? error.message : `Error: ${describeError(error)}`;
    const failure = mergeCommon(
      await fireHook(run, 'PostToolUseFailure', { tool_name: tool.name, tool_input: input as Record<string, unknown>, tool_use_id: call.id, error: message, is_interrupt: run.signal.aborted, duration_ms: Math.round(performance.now() - started), ...mcpServerOf(tool) }, tool.name),
    );
    return {
      result: toolResultMessage(call.id, tool.name, message, true),
      contexts: failure.contexts.map((text) => contextLabel('PostToolUseFailure', tool.name, text)),
      ...(failure.stop ? { stop: 'hook_stopped' as const } : {}),
    };
  }
  const post = mergePostToolUse(
    await fireHook(run, 'PostToolUse', { tool_name: tool.name, tool_input: input as Record<string, unknown>, tool_response: output, tool_use_id: call.id, duration_ms: Math.round(performance.now() - started), ...mcpServerOf(tool) }, tool.name),
  );
  const contexts = post.contexts.map((text) => contextLabel('PostToolUse', tool.name, text));
  // An MCP tool's output is replaced by `updatedMCPToolOutput` (Claude Code's field for them), else by `updatedToolOutput`.
  const updatedOutput = (tool.mcpServer ? post.updatedMCPToolOutput : undefined) ?? post.updatedToolOutput;
  if (updatedOutput) {
    const replaced = checkToolOutput(tool, updatedOutput.value);
    if (replaced.ok) {
      output = replaced.value;
      run.emit({ type: 'input_rewritten', toolName: tool.name, toolUseId: call.id, by: 'PostToolUse' });
    } else run.emit({ type: 'warning', text: `PostToolUse:${tool.name} updatedToolOutput ignored: ${replaced.error}` });
  }
  contexts.push(...post.blocks.map((block) => postToolUseBlock(tool.name, block.labelled ?? block.reason)));
  let content: string;
  let blocks: readonly ToolResultBlock[] | undefined;
  try {
    content = tool.render(output, input);
    blocks = tool.renderBlocks?.(output, input);
  } catch (error) {
    content = `Error: the tool output could not be rendered: ${describeError(error)}`;
    blocks = undefined;
  }
  return { result: toolResultMessage(call.id, tool.name, content, false, blocks), contexts, ...(post.stop ? { stop: 'hook_stopped' as const } : {}), output };
}

/** `mcp_server` for the tool events of an MCP tool (Claude Code sends it last, after the event's own fields). */
function mcpServerOf(tool: AnyTool): { mcp_server?: { name: string; source: string } } {
  return tool.mcpServer ? { mcp_server: { name: tool.mcpServer.name, source: tool.mcpServer.source } } : {};
}

/** An `updatedToolOutput` must match the tool's output shape when the tool declares one (a plain string for Bash is refused, as in the reference). */
function checkToolOutput(tool: AnyTool, value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  // A string (most tool outputs) is immutable: cloning it would copy every byte for nothing.
  if (!tool.outputSchema) return { ok: true, value: typeof value === 'object' && value !== null ? structuredClone(value) : value };
  const parsed = tool.outputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ') };
}

/**
 * A refused call: recorded in `permission_denials` (as the reference's JSON result does) and paired
 * with `message`. The denial names the input that was refused, normalized as PreToolUse saw it
 * (absolute paths), as the reference reports it (mode-accept-edits, mode-plan).
 */
function refuse(run: RunContext, call: ToolCall, input: Input, message: string, contexts: string[], stop: CallOutcome['stop']): CallOutcome {
  run.permissionDenials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: structuredClone(input) });
  return finish(run, call, toolResultMessage(call.id, call.name, message, true), contexts, stop);
}

function finish(run: RunContext, call: ToolCall, result: ToolResultMessage, contexts: readonly string[], stop?: CallOutcome['stop'], ran = false, output?: unknown): CallOutcome {
  run.emit({ type: 'tool_result', toolName: call.name, toolUseId: call.id, result, ran, ...(output !== undefined ? { output } : {}) });
  return {
    result,
    contexts,
    ...(stop ? { stop } : {}),
    // An MCP tool's response is its content array (after updatedMCPToolOutput), as the reference reports it.
    batchEntry: { tool_name: call.name, tool_input: batchInput(run, call), tool_use_id: call.id, tool_response: ran && !result.isError && run.tools.get(call.name)?.mcpServer && output !== undefined ? output : result.content },
  };
}

/**
 * What PostToolBatch reports as a call's input: the model's own arguments (paths as written, not a
 * hook's rewrite) plus the fields the tool fills in by default (Edit's `replace_all: false`), as the
 * reference does (tools-read-write-edit, post-tool-use-failure). Raw arguments when they do not validate.
 */
function batchInput(run: RunContext, call: ToolCall): unknown {
  const tool = run.tools.get(call.name);
  if (!tool || call.input === null || typeof call.input !== 'object' || Array.isArray(call.input)) return call.input;
  const checked = run.tools.check(tool, call.input, run.state);
  return checked.ok ? { ...checked.input, ...(call.input as Input) } : call.input;
}
