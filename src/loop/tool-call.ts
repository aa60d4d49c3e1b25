import { mergePostToolUse, mergePreToolUse, mergeCommon } from '../hooks/merge.js';
import { describeError } from '../errors.js';
import { toolResultMessage, type ToolCall, type ToolResultBlock, type ToolResultMessage } from '../messages/messages.js';
import { ToolFailure, type AnyTool, type ToolContext } from '../tools/define-tool.js';
import { toolUseError } from '../tools/tool-registry.js';
import { checkInput, decidePermission } from './decide-permission.js';
import { contextLabel, DEFERRED_BATCH_SKIPPED, postToolUseBlock, preToolUseError } from './hook-text.js';
import { decidingHook, reportDecision } from './permission-decision.js';
import { permissionDenied } from './permission-events.js';
import { checkReplacedOutput, replacementFor, withAbsolutePaths } from './replaced-output.js';
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
 * PermissionRequest → (Notification) approver → PermissionDenied (auto mode's refusals only) → content checks
 * (`Tool.validateContent`) → handler (exactly once) → PostToolUse / PostToolUseFailure. With `deferring` (an earlier call of the batch was deferred)
 * the call stops after PreToolUse: a hook may defer it too, but it never runs.
 * Never throws: every path ends in one paired result.
 */
export async function runToolCall(run: RunContext, call: ToolCall, options: { readonly deferring?: boolean } = {}): Promise<CallOutcome> {
  const prepared = await run.tools.prepare(call, toolContext(run));
  if (prepared.kind === 'settled') return finish(run, call, prepared.result, []);
  const { tool } = prepared;
  const contexts: string[] = [];
  run.emit({ type: 'tool_started', toolName: tool.name, toolUseId: call.id, input: prepared.input });

  const preOutcomes = await fireHook(run, 'PreToolUse', { tool_name: tool.name, tool_input: prepared.input as Record<string, unknown>, tool_use_id: call.id, ...mcpServerOf(tool) }, tool.name);
  const pre = mergePreToolUse(preOutcomes);
  const preBy = decidingHook('PreToolUse', preOutcomes, pre.decision);
  contexts.push(...pre.contexts.map((text) => contextLabel('PreToolUse', tool.name, text)));
  const stop = pre.stop ? ('hook_stopped' as const) : undefined;
  if (pre.decision === 'deny') {
    const message = preToolUseError(tool.name, pre.reason ?? 'blocked');
    await reportDecision(run, call, tool.name, prepared.input, { decision: 'deny', decidedBy: 'hook', mode: run.policy.mode, reason: pre.reason ?? 'blocked', ...(preBy ? { hook: preBy } : {}) }, 0);
    return refuse(run, call, prepared.input, message, contexts, stop);
  }
  if (pre.decision === 'defer') {
    const result = toolResultMessage(call.id, tool.name, 'The call was deferred by a PreToolUse hook; it did not run.', true);
    return { ...finish(run, call, result, contexts), deferred: { id: call.id, name: tool.name, input: call.input } };
  }
  if (options.deferring) return finish(run, call, toolResultMessage(call.id, tool.name, DEFERRED_BATCH_SKIPPED, true), contexts);

  const hook = { decision: pre.decision === 'allow' || pre.decision === 'ask' ? pre.decision : undefined, reason: pre.reason, ...(preBy ? { by: preBy } : {}) };
  const checked = await checkInput(run, tool, prepared.input, hook, pre.updatedInput);
  if (!checked.ok) {
    await reportDecision(run, call, tool.name, prepared.input, { decision: 'deny', decidedBy: 'validation', mode: run.policy.mode, reason: checked.error }, 0);
    return refuse(run, call, prepared.input, preToolUseError(tool.name, checked.error), contexts, stop);
  }
  if (pre.updatedInput) run.emit({ type: 'input_rewritten', toolName: tool.name, toolUseId: call.id, by: 'PreToolUse' });

  const permitted = await decidePermission(run, call, tool, checked, hook);
  if (permitted.kind === 'denied') {
    const notes = permitted.byClassifier ? await permissionDenied(run, call, tool.name, checked.input, permitted.message) : [];
    return { ...refuse(run, call, checked.input, permitted.message, contexts, permitted.interrupt ? 'aborted_tools' : stop), ...(notes.length > 0 ? { notes } : {}) };
  }
  const input = permitted.input;
  // A rewrite the model never wrote (PreToolUse or PermissionRequest `updatedInput`): paths show absolute.
  const rewritten = pre.updatedInput !== undefined || permitted.input !== prepared.input;

  // Checks that read the files come only now, so a refused call learns nothing about them.
  run.emit({ type: 'tool_executing', toolName: tool.name, toolUseId: call.id });
  const context = callContext(run, call, tool, input, permitted.realPaths);
  const invalid = await validateContent(tool, input, context);
  if (invalid !== undefined) return finish(run, call, toolResultMessage(call.id, tool.name, toolUseError(invalid), true), contexts, stop);

  const executed = await execute(run, call, tool, input, context, rewritten);
  contexts.push(...executed.contexts);
  return finish(run, call, executed.result, contexts, executed.stop ?? stop, true, executed.output);
}

/**
 * The handler's context for this call: the run's, plus the real paths the permission was decided
 * for (file tools write there or nowhere) and the policy's search filter (Grep and Glob show only
 * files this call may read), and the traceparent of its span when the run is traced.
 */
function callContext(run: RunContext, call: ToolCall, tool: AnyTool, input: Input, realPaths: readonly string[]): ToolContext {
  const traceparent = run.traceparent?.(call.id);
  const base = { ...toolContext(run), approvedPaths: realPaths, ...(traceparent !== undefined ? { traceparent } : {}) };
  if (tool.kind !== 'read') return base;
  return { ...base, mayRead: run.policy.searchFilter({ tool, input, cwd: base.cwd }) };
}

/** The tool's content checks (see `Tool.validateContent`); a throw is reported like a returned problem. */
async function validateContent(tool: AnyTool, input: Input, context: ToolContext): Promise<string | undefined> {
  if (!tool.validateContent) return undefined;
  try {
    return await tool.validateContent(input, context);
  } catch (error) {
    return `Error: ${describeError(error)}`;
  }
}

/** Runs the handler exactly once, then PostToolUse (success) or PostToolUseFailure (failure). */
async function execute(run: RunContext, call: ToolCall, tool: AnyTool, input: Input, context: ToolContext, rewritten: boolean): Promise<{ result: ToolResultMessage; contexts: string[]; stop?: 'hook_stopped'; output?: unknown }> {
  const started = performance.now();
  const cwd = run.state.cwd;
  let output: unknown;
  await run.hooks.boundary('before-tool', { toolName: tool.name, toolUseId: call.id });
  try {
    output = await tool.handler(input, context);
    if (rewritten) output = withAbsolutePaths(output, cwd);
  } catch (error) {
    await run.hooks.boundary('after-tool', { toolName: tool.name, toolUseId: call.id });
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
  await run.hooks.boundary('after-tool', { toolName: tool.name, toolUseId: call.id });
  const post = mergePostToolUse(
    await fireHook(run, 'PostToolUse', { tool_name: tool.name, tool_input: input as Record<string, unknown>, tool_response: output, tool_use_id: call.id, duration_ms: Math.round(performance.now() - started), ...mcpServerOf(tool) }, tool.name),
  );
  const contexts = post.contexts.map((text) => contextLabel('PostToolUse', tool.name, text));
  const replacement = replacementFor(tool, post);
  if (replacement) {
    const replaced = checkReplacedOutput(tool, replacement.value, output);
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
