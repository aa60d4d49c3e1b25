import { BLOCKED_BY_HOOK } from '../hooks/merge/rule.js';
import { eventSpec } from '../hooks/event-table.js';
import {
  systemMessage,
  toolResultMessage,
  userMessage,
  type AssistantMessage,
  type ToolCall,
  type ToolResultMessage,
} from '../messages/messages.js';
import { tallyUsage } from '../model/usage.js';
import { APPROVAL_INPUT_CHANGED, CallsWaiting, type PendingCall } from '../session/pending-calls.js';
import type { AnyTool } from '../tools/define-tool.js';
import { toolUseError } from '../tools/tool-registry.js';
import { deliverBackground, wokenByBackground } from './background-delivery.js';
import { oversizedMcpOutput } from './mcp-output.js';
import {
  batchEntry,
  batchResponse,
  callContext,
  followUpText,
  mcpServerOf,
  renderResult,
  runHandler,
  spelledFilePath,
  validateContent,
  type HandlerRun,
} from './call-execution.js';
import { compactBeforeTurn, contextTokensOf, PROMPT_TOO_LONG } from './compaction.js';
import {
  approvedByDecision,
  askApprover,
  askPermissionHooks,
  checkInput,
  hookRecommendation,
  noteTaint,
  policyVerdict,
} from './permission-decision/decide.js';
import { distinctCallIds } from './distinct-call-ids.js';
import {
  contextLabel,
  duplicateToolUseIdResult,
  HOOK_STOPPED_CONTINUATION,
  INTERRUPTED_RESULT,
  postToolUseBlock,
  preToolUseError,
  stopBlockingError,
  stopContext,
  stopFeedback,
  SUBAGENT_ANSWERED,
} from './hook-text.js';
import type { BatchEnd, CallOutcome, LoopEnd, LoopOptions } from './loop-types.js';
import { failTurn } from './model-failure.js';
import { endOverBudget, overBudget } from './budget.js';
import { journaledModel } from './journaled-model.js';
import { requestModel as requestThroughHooks } from './model-call-hooks.js';
import {
  approvalCovers,
  waitingAfterPreToolUse,
  waitingEnd,
  waitingInsideOutcome,
  waitingOutcome,
} from './pending-call.js';
import {
  preToolUseDenial,
  reportDecision,
  rewriteRejected,
  rewritingHook,
  taintedHookFiles,
  type PermissionDecisionRecord,
} from './permission-decision/report.js';
import { permissionDenied } from './permission-decision/events.js';
import { replacedOutput } from './replaced-output.js';
import {
  appendMessage,
  fireHook,
  observerStopwatch,
  phaseBoundary,
  toolContext,
  type RunContext,
} from './run-context.js';

/**
 * The agent loop: the one pipeline of named phases that the main session (run/run-agent.ts), the
 * Agent tool's subagents (agents/run-subagent.ts) and agent hooks' subagents (agents/hook-subagent.ts)
 * all run, each with its own RunContext (tools, policy, hook identity) and LoopOptions (system
 * prompt, limits, RunRole: main session or subagent). Read top to bottom:
 *
 *   runLoop       turn after turn: (compactBeforeTurn →) requestModel → runToolBatch → decideStop
 *   runToolBatch  every call of one answer paired, in order (Agent calls side by side), then PostToolBatch
 *   runToolCall   prepare → PreToolUse → applyPolicy → askPermissionHooks → askApprover → execute → PostToolUse → pair
 *   decideStop    Stop / SubagentStop: stop, or feedback and another turn (bounded)
 *
 * Contract: no phase throws for model, tool or hook failures; they end the loop with a
 * `terminalReason`, and every tool call the model made has exactly one paired result.
 */

/** Runs model turns until the model stops and the stop hooks agree, a hook ends the run, or a limit is hit. Never throws. */
export async function runLoop(run: RunContext, options: LoopOptions): Promise<LoopEnd> {
  const main = options.role.kind === 'main' ? options.role : undefined;
  const required = options.role.kind === 'subagent' ? options.role.answer : undefined;
  let pending = main?.queuedPrompt;
  let continuations = 0;
  let lastStopReason: string | null = null;
  let lastText = '';
  for (;;) {
    if (run.signal.aborted)
      return { result: lastText, isError: true, terminalReason: 'aborted', stopReason: lastStopReason };
    const turn = options.countTurn();
    if (turn > options.maxTurns)
      return {
        result: `Reached the maximum number of turns (${options.maxTurns})`,
        isError: true,
        terminalReason: 'max_turns',
        stopReason: lastStopReason,
      };
    // Claude Code ends such a run with a synthetic message whose stop_reason is stop_sequence (compaction-precompact-block-at-limit).
    if (
      main?.compaction &&
      (await compactBeforeTurn(run, main.compaction, options.totals)) === 'blocking_limit'
    )
      return {
        result: PROMPT_TOO_LONG,
        isError: true,
        terminalReason: 'blocking_limit',
        stopReason: 'stop_sequence',
      };
    if (main) deliverBackground(run);

    const answer = await requestModel(run, options, turn);
    if (answer.kind === 'failed') return failTurn(run, answer.error, lastText, main !== undefined);
    // A PreModelRequest hook's continue:false: no request was made.
    if (answer.kind === 'stopped')
      return { result: lastText, isError: false, terminalReason: 'hook_stopped', stopReason: lastStopReason };
    const { assistant } = answer;
    appendMessage(run, assistant);
    lastText = assistant.text;
    lastStopReason = answer.stopReason;
    if (options.maxBudgetUsd !== undefined && overBudget(options.totals, options.maxBudgetUsd))
      return endOverBudget(run, assistant, options.maxBudgetUsd, lastStopReason);

    if (assistant.toolCalls.length > 0) {
      const batch = await runToolBatch(answer.toolRun, assistant, answer.repeated, required?.given);
      if (batch.kind === 'tool_deferred')
        return {
          result: '',
          isError: false,
          terminalReason: 'tool_deferred',
          stopReason: 'tool_deferred',
          deferredToolUse: batch.deferred,
          pending: batch.pending,
        };
      if (batch.kind !== 'continue')
        return {
          result: '',
          isError: batch.kind !== 'hook_stopped',
          terminalReason: batch.kind,
          stopReason: lastStopReason,
        };
      if (pending !== undefined) await pending(true);
      pending = undefined;
      // Only a subagent that has given its required answer stops after a batch; the others go on.
      if (required?.given() !== true) continue;
    } else if (pending !== undefined) {
      await pending(false);
      pending = undefined;
      continue;
    }

    const stop = await decideStop(run, options, assistant.text, continuations);
    // A stop hook's continue:false ends the run as Claude Code reports it: an empty result when it came with a block.
    if (stop === 'prevented' || stop === 'prevented_with_block')
      return {
        result: stop === 'prevented' ? assistant.text : '',
        isError: false,
        terminalReason: 'stop_hook_prevented',
        stopReason: lastStopReason,
      };
    if (stop === 'continue') {
      continuations++;
      continue;
    }
    // Claude Code reports an empty `result` when its cap overrides a stop block (stop-block-forever).
    if (stop === 'capped')
      return { result: '', isError: false, terminalReason: 'completed', stopReason: lastStopReason };
    if (required !== undefined && !required.given()) {
      appendMessage(run, userMessage(required.reminder));
      continue;
    }
    return {
      result: assistant.text,
      isError: false,
      terminalReason: 'completed',
      stopReason: lastStopReason,
    };
  }
}

type ModelAnswer =
  | {
      kind: 'answered';
      assistant: AssistantMessage;
      repeated: ReadonlyMap<string, string>;
      stopReason: string | null;
      toolRun: RunContext;
    }
  | { kind: 'stopped' }
  | { kind: 'failed'; error: unknown };

/**
 * requestModel: one request with the conversation and the run's tools, through the model-call
 * hooks (model-call-hooks.ts; `caller` main, or subagent inside one). The answer's tool-call ids
 * are made distinct (see distinctCallIds); its usage is tallied (a hook's synthetic answer has
 * none) and its context size kept for compaction. `toolRun` is the run its calls go through (the
 * tools a PreToolSelection hook offered).
 */
async function requestModel(run: RunContext, options: LoopOptions, turn: number): Promise<ModelAnswer> {
  try {
    run.emit({ type: 'model_request', turn, model: options.model.name });
    const answer = await requestThroughHooks(
      run,
      {
        caller: options.role.kind === 'main' ? 'main' : 'subagent',
        turn,
        system: options.system,
        messages: run.messages,
        tools: run.tools.specs(),
        signal: run.signal,
        onStream: (event) => run.emit({ type: 'model_stream', turn, event }),
      },
      journaledModel(run, options.model, `model:${run.state.agent?.id ?? 'main'}:turn-${turn}`),
    );
    if (answer.kind === 'stopped') return answer;
    const { response } = answer;
    const { message, repeated } = distinctCallIds(response.message);
    if (!answer.synthetic) {
      const model = response.model ?? options.model.name;
      tallyUsage(options.totals, model, response.usage);
      run.state.model = model;
      run.state.contextTokens = contextTokensOf(response.usage);
    }
    run.emit({
      type: 'model_response',
      turn,
      text: message.text,
      toolCalls: message.toolCalls.length,
      usage: response.usage,
      model: response.model ?? options.model.name,
      stopReason: response.stopReason,
    });
    return {
      kind: 'answered',
      assistant: message,
      repeated,
      stopReason: response.stopReason,
      toolRun: answer.toolRun ?? run,
    };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/**
 * runToolBatch: runs the calls of one assistant message and appends exactly one paired result per
 * call, in call order (every tool call gets exactly one result); then the user notes of PermissionDenied hooks (`retry`),
 * then one system message with the hooks' context (Pre, Post, Batch order), then PostToolBatch.
 * Calls run one after another, except that consecutive calls of a `concurrent` tool (Agent) run
 * side by side. When a hook ends the run, or the run is aborted, every call not yet run is paired
 * with a stable error result.
 *
 * A call that waits for a decision (a PreToolUse `defer`, a PermissionRequest `defer`, the
 * approver's `later`) ends the run without a result: the calls after it still get their PreToolUse
 * hooks and wait too (none of them runs); the run reports the last call a hook deferred, as the
 * reference does (pre-json-defer-batch), and every waiting call in `pending`, which a
 * `calls_pending` event hands to the transcript (pending-call.ts, deferred-approval.ts). `answered` (a subagent gave its required answer) ends the batch after
 * the current call, without PostToolBatch. A call in `repeated` (renamed by distinctCallIds) never
 * runs and fires no hooks: it is paired with an error saying its id was a duplicate.
 */
async function runToolBatch(
  run: RunContext,
  assistant: AssistantMessage,
  repeated: ReadonlyMap<string, string>,
  answered: () => boolean = () => false,
): Promise<BatchEnd> {
  const outcomes: CallOutcome[] = [];
  const pending: PendingCall[] = [];
  let end: BatchEnd = { kind: 'continue' };
  // A hook's continue:false lets the rest of the batch run, as Claude Code does; the run ends after it, without PostToolBatch.
  let stopped = false;
  for (const group of callGroups(run, assistant.toolCalls)) {
    const settled = await Promise.all(
      group.map(async (call): Promise<CallOutcome | ToolResultMessage> => {
        const skipped = skippedResult(run, call, end, answered(), repeated);
        return skipped ?? runToolCall(run, call, end.kind === 'tool_deferred');
      }),
    );
    for (const entry of settled) {
      if ('role' in entry) {
        appendMessage(run, entry);
        continue;
      }
      outcomes.push(entry);
      if (entry.result) appendMessage(run, entry.result);
      if (entry.pending) {
        pending.push(...entry.pending);
        end = waitingEnd(end, { ...entry, pending: entry.pending }, pending);
      } else if (entry.stop === 'hook_stopped') stopped = true;
      else if (entry.stop && end.kind !== 'tool_deferred') end = { kind: entry.stop };
    }
  }
  if (run.signal.aborted && end.kind === 'continue') end = { kind: 'aborted' };
  if (stopped && end.kind === 'continue') end = { kind: 'hook_stopped' };

  const notes = outcomes.flatMap((outcome) => outcome.notes ?? []);
  if (notes.length > 0) appendMessage(run, userMessage(notes.join('\n\n')));
  const contexts = outcomes.flatMap((outcome) => outcome.contexts);
  if (end.kind === 'continue' && !answered()) {
    const batch = await fireHook(run, 'PostToolBatch', {
      tool_calls: outcomes.map((outcome) => outcome.batchEntry()),
    });
    contexts.push(...batch.contexts.map((text) => contextLabel('PostToolBatch', undefined, text)));
    if (batch.blocks.length > 0 || batch.stop) end = { kind: 'hook_stopped' };
  }
  if (contexts.length > 0) appendMessage(run, systemMessage(contexts.join('\n\n')));
  if (pending.length > 0) run.emit({ type: 'calls_pending', calls: pending });
  return end;
}

/** The calls in the groups they run in: a run of consecutive calls to a `concurrent` tool is one group, any other call its own. */
function callGroups(run: RunContext, calls: readonly ToolCall[]): ToolCall[][] {
  const groups: ToolCall[][] = [];
  for (const call of calls) {
    const previous = groups.at(-1);
    const together = run.tools.get(call.name)?.concurrent === true;
    if (together && previous !== undefined && run.tools.get(previous[0]!.name)?.concurrent === true)
      previous.push(call);
    else groups.push([call]);
  }
  return groups;
}

/** The result of a call that does not run at all (the run ended, the subagent answered, a repeated id), or undefined. */
function skippedResult(
  run: RunContext,
  call: ToolCall,
  end: BatchEnd,
  answered: boolean,
  repeated: ReadonlyMap<string, string>,
): ToolResultMessage | undefined {
  if ((end.kind !== 'continue' && end.kind !== 'tool_deferred') || answered || run.signal.aborted) {
    const content = answered
      ? SUBAGENT_ANSWERED
      : run.signal.aborted && end.kind === 'continue'
        ? INTERRUPTED_RESULT
        : HOOK_STOPPED_CONTINUATION;
    return toolResultMessage(call.id, call.name, content, true);
  }
  const repeatedId = repeated.get(call.id);
  return repeatedId !== undefined
    ? toolResultMessage(call.id, call.name, duplicateToolUseIdResult(repeatedId), true)
    : undefined;
}

/**
 * runToolCall: one call through the fixed pipeline. prepare (lookup, JSON, schema: a failure is
 * settled, no hooks) → PreToolUse → applyPolicy (the one check of the input, the model's or a
 * rewrite, against every rule, boundary and mode) → askPermissionHooks (PermissionRequest) →
 * askApprover (Notification, the approver; auto mode's refusals fire PermissionDenied) → execute
 * (content checks, then the handler exactly once) → PostToolUse / PostToolUseFailure → pair.
 * With `deferring` (an earlier call of the batch waits) the call stops after PreToolUse: a hook may
 * refuse it, else it waits too. With `approval` (a decision on a pending call, deferred-approval.ts)
 * it runs as if a person approved it now: PreToolUse runs again and its deny still wins, its defer
 * no longer holds the call, the policy still refuses what it refuses, and the approval covers only
 * `approval.input`. Never throws: every path ends in one paired result, or a `pending` call.
 */
export async function runToolCall(
  run: RunContext,
  call: ToolCall,
  deferring: boolean,
  approval?: { readonly input: unknown },
): Promise<CallOutcome> {
  const prepared = await run.tools.prepare(call, toolContext(run));
  if (prepared.kind === 'settled') return pair(run, call, prepared.result, []);
  const { tool } = prepared;
  run.emit({ type: 'tool_started', toolName: tool.name, toolUseId: call.id, input: prepared.input });

  const pre = await fireHook(run, 'PreToolUse', {
    tool_name: tool.name,
    tool_input: prepared.input as Record<string, unknown>,
    tool_use_id: call.id,
    ...mcpServerOf(tool),
  });
  const contexts = pre.contexts.map((text) => contextLabel('PreToolUse', tool.name, text));
  const stop = pre.stop ? ('hook_stopped' as const) : undefined;
  // Command hooks that ran files the model wrote are named in the record (never blocked: they are the user's).
  const hookTainted = await taintedHookFiles(run, pre.outcomes);
  const withHookTaint = (record: PermissionDecisionRecord): PermissionDecisionRecord =>
    hookTainted.length > 0 ? { ...record, hookTaintedFiles: hookTainted } : record;
  if (pre.decision === 'deny') {
    await reportDecision(run, call, tool.name, prepared.input, withHookTaint(preToolUseDenial(run, pre)));
    return refuse(
      run,
      call,
      prepared.input,
      preToolUseError(tool.name, pre.reason ?? BLOCKED_BY_HOOK),
      contexts,
      stop,
    );
  }
  if ((pre.decision === 'defer' && approval === undefined) || deferring) {
    const waiting = waitingAfterPreToolUse(run, call, tool, prepared.input, pre);
    return waiting.ok
      ? waitingOutcome(run, call, waiting.pending, contexts)
      : refuse(run, call, prepared.input, preToolUseError(tool.name, waiting.error), contexts, stop);
  }

  // applyPolicy: a hook's allow is only a recommendation the policy weighs; a deny rule or boundary wins.
  const hook = hookRecommendation(pre);
  const checked = await checkInput(run, tool, prepared.input, hook, pre.updatedInput);
  if (!checked.ok) {
    await reportDecision(run, call, tool.name, prepared.input, rewriteRejected(run, checked.error));
    return refuse(run, call, prepared.input, preToolUseError(tool.name, checked.error), contexts, stop);
  }
  if (pre.updatedInput) {
    const rewriter = rewritingHook(pre.outcomes, pre.updatedInput);
    run.emit({
      type: 'input_rewritten',
      toolName: tool.name,
      toolUseId: call.id,
      by: 'PreToolUse',
      input: checked.input,
      ...(rewriter ? { hook: rewriter } : {}),
    });
  }
  // An approval covers the frozen input that was pending, nothing else (a rewrite on resume voids it).
  if (approval !== undefined && !approvalCovers(approval.input, checked.input)) {
    await reportDecision(run, call, tool.name, checked.input, rewriteRejected(run, APPROVAL_INPUT_CHANGED));
    return refuse(run, call, checked.input, APPROVAL_INPUT_CHANGED, contexts, stop);
  }
  const decisionTime = observerStopwatch(run);
  let permission = policyVerdict(run, call, tool, checked, hook);
  if (permission.kind === 'ask')
    permission =
      approval !== undefined
        ? approvedByDecision(run, call, tool, permission)
        : await askPermissionHooks(run, call, tool, permission, hook);
  if (permission.kind === 'ask') permission = await askApprover(run, call, tool, permission);
  if (permission.kind === 'pending')
    return waitingOutcome(
      run,
      call,
      {
        id: call.id,
        name: tool.name,
        input: permission.input,
        reason: permission.reason,
        message: permission.message,
      },
      contexts,
    );
  // Whichever step settled the call recorded who decided; it is reported once, here.
  await reportDecision(
    run,
    call,
    tool.name,
    permission.kind === 'allowed' ? permission.input : checked.input,
    withHookTaint(permission.record),
    decisionTime(),
  );
  if (permission.kind === 'denied') {
    const notes = permission.byClassifier
      ? await permissionDenied(run, call, tool.name, checked.input, permission.message)
      : [];
    return {
      ...refuse(
        run,
        call,
        checked.input,
        permission.message,
        contexts,
        permission.interrupt ? 'aborted_tools' : stop,
      ),
      ...(notes.length > 0 ? { notes } : {}),
    };
  }
  const { input } = permission;
  // A rewrite the model never wrote (PreToolUse or PermissionRequest `updatedInput`): paths show absolute.
  const rewritten = pre.updatedInput !== undefined || input !== prepared.input;

  // execute: checks that read the files come only now, so a refused call learns nothing about them.
  run.emit({ type: 'tool_executing', toolName: tool.name, toolUseId: call.id });
  const spelled = rewritten ? undefined : spelledFilePath(call.input);
  const context = {
    ...callContext(run, call, tool, input, permission.realPaths),
    ...(spelled !== undefined ? { spelledPath: spelled } : {}),
  };
  const invalid = await validateContent(tool, input, context);
  if (invalid !== undefined)
    return pair(
      run,
      call,
      toolResultMessage(call.id, tool.name, toolUseError(invalid), true),
      contexts,
      stop,
    );
  // What the call writes is read before it runs (a `cd` moves the session) and counted after, failed or not.
  const writes = await run.policy.writesOf({ tool, input, cwd: run.state.cwd });
  const ran = await runHandler(run, call, tool, input, context, rewritten);
  if (writes) noteTaint(run, writes);
  return finishCall(run, call, tool, input, ran, contexts, stop);
}

/**
 * The end of a call whose handler ran (or whose waiting subagent finished on resume,
 * deferred-approval.ts): PostToolUse → pair. A handler still waiting (CallsWaiting) leaves the call pending.
 */
export async function finishCall(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  input: Readonly<Record<string, unknown>>,
  ran: HandlerRun | CallsWaiting,
  contexts: readonly string[],
  stop?: CallOutcome['stop'],
): Promise<CallOutcome> {
  if (ran instanceof CallsWaiting) return waitingInsideOutcome(run, call, ran, contexts);
  const post = await postToolUse(run, call, tool, input, ran);
  const paired = pair(
    run,
    call,
    post.result,
    [...contexts, ...post.contexts],
    post.stop ?? stop,
    true,
    post.output,
  );
  const followUp = ran.ok ? followUpText(tool, post.output, input) : undefined;
  return followUp !== undefined ? { ...paired, notes: [followUp] } : paired;
}

/**
 * PostToolUse (success: a rewrite of the output, blocks as system text) or PostToolUseFailure
 * (the handler failed: the error text is the result). Returns the model's view of the call.
 */
async function postToolUse(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  input: Readonly<Record<string, unknown>>,
  ran: HandlerRun,
): Promise<{ result: ToolResultMessage; contexts: string[]; stop?: CallOutcome['stop']; output?: unknown }> {
  const fields = { tool_name: tool.name, tool_input: input as Record<string, unknown> };
  if (!ran.ok) {
    const failure = await fireHook(run, 'PostToolUseFailure', {
      ...fields,
      tool_use_id: call.id,
      error: ran.message,
      is_interrupt: run.signal.aborted,
      duration_ms: ran.durationMs,
      ...mcpServerOf(tool),
    });
    // As after PostToolUse, a block cannot undo the call: its feedback follows the context as system text.
    const contexts = [
      ...failure.contexts.map((text) => contextLabel('PostToolUseFailure', tool.name, text)),
      ...failure.blocks.map((block) =>
        postToolUseBlock(tool.name, block.labelled ?? block.reason, 'PostToolUseFailure'),
      ),
    ];
    // Claude Code does not honour continue:false from PostToolUseFailure (measured): the run goes on.
    const stop = ran.endsRun;
    return {
      result: toolResultMessage(call.id, tool.name, ran.message, true),
      contexts,
      ...(stop ? { stop } : {}),
    };
  }
  const post = await fireHook(run, 'PostToolUse', {
    tool_name: tool.name,
    tool_input: fields.tool_input,
    tool_response: ran.output,
    tool_use_id: call.id,
    duration_ms: ran.durationMs,
    ...mcpServerOf(tool),
  });
  const output = replacedOutput(run, call, tool, post, ran.output);
  const contexts = [
    ...post.contexts.map((text) => contextLabel('PostToolUse', tool.name, text)),
    ...post.blocks.map((block) => postToolUseBlock(tool.name, block.labelled ?? block.reason)),
  ];
  // An MCP output over Claude Code's limit reaches the model and PostToolBatch as a saved file's preview.
  const persisted = tool.mcpServer ? oversizedMcpOutput(run, call.id, output) : undefined;
  const result =
    persisted !== undefined
      ? toolResultMessage(call.id, tool.name, persisted, false)
      : renderResult(call, tool, output, input);
  return {
    result,
    contexts,
    ...(post.stop ? { stop: 'hook_stopped' as const } : {}),
    ...(persisted === undefined ? { output } : {}),
  };
}

/**
 * A refused call: recorded in `permission_denials` (as the reference's JSON result does) and paired
 * with `message`. The denial names the input that was refused, normalized as PreToolUse saw it
 * (absolute paths), as the reference reports it (mode-accept-edits, mode-plan).
 */
function refuse(
  run: RunContext,
  call: ToolCall,
  input: Readonly<Record<string, unknown>>,
  message: string,
  contexts: readonly string[],
  stop: CallOutcome['stop'],
): CallOutcome {
  run.permissionDenials.push({
    tool_name: call.name,
    tool_use_id: call.id,
    tool_input: structuredClone(input),
  });
  return pair(run, call, toolResultMessage(call.id, call.name, message, true), contexts, stop);
}

/** pair: the call's one result, reported to observers, with what PostToolBatch will say of it. */
function pair(
  run: RunContext,
  call: ToolCall,
  result: ToolResultMessage,
  contexts: readonly string[],
  stop?: CallOutcome['stop'],
  ran = false,
  output?: unknown,
): CallOutcome {
  run.emit({
    type: 'tool_result',
    toolName: call.name,
    toolUseId: call.id,
    result,
    ran,
    ...(output !== undefined ? { output } : {}),
  });
  return {
    result,
    contexts,
    ...(stop ? { stop } : {}),
    batchEntry: batchEntry(run, call, batchResponse(run, call, result, ran, output)),
  };
}

/**
 * decideStop: the model stopped; Stop (main session) or SubagentStop (a subagent) hooks may send it
 * back to work with feedback, at most `maxStopContinuations` times: past the cap their block is
 * overridden (`capped`). A hook's `continue: false` stops at once. In the main session a stop with
 * no block waits for `asyncRewake` hooks, whose block also means another turn.
 */
async function decideStop(
  run: RunContext,
  options: LoopOptions,
  lastText: string,
  continuations: number,
): Promise<'stop' | 'continue' | 'capped' | 'prevented' | 'prevented_with_block'> {
  const { role } = options;
  const event = role.kind === 'main' ? 'Stop' : 'SubagentStop';
  const active = { stop_hook_active: continuations > 0 };
  const tail = { last_assistant_message: lastText, background_tasks: [], session_crons: [] };
  let merged;
  // Which event ends the turns is the run's role (main session or subagent); what its answers mean is the event table's.
  if (role.kind === 'main') {
    await phaseBoundary(run, 'before-stop');
    merged = await fireHook(run, 'Stop', { ...active, ...tail });
  } else {
    merged = await fireHook(run, 'SubagentStop', {
      ...active,
      agent_transcript_path: role.transcriptPath,
      ...tail,
    });
  }
  // `decidesStop`: a block or context from this event means "not yet", another turn (bounded below).
  const wantsMore = eventSpec(event).decidesStop && (merged.blocks.length > 0 || merged.contexts.length > 0);
  const mayContinue = continuations < options.maxStopContinuations;
  if (merged.stop) return merged.blocks.length > 0 ? 'prevented_with_block' : 'prevented';
  if (!wantsMore)
    return role.kind === 'main' && mayContinue && (await wokenByBackground(run)) ? 'continue' : 'stop';
  if (!mayContinue) {
    run.emit({
      type: 'warning',
      text: `${event} hooks asked for more than ${continuations} continuations; the limit ends the run`,
    });
    return 'capped';
  }
  if (merged.blocks.length > 0) {
    appendMessage(run, userMessage(merged.blocks.map((block) => stopFeedback(block.reason)).join('\n\n')));
    const labelled = merged.blocks
      .filter((block) => block.labelled !== undefined)
      .map((block) => stopBlockingError(block.labelled!, event));
    // With a block, Claude Code puts the stop context after the blocking errors in one system message; alone, it is user text.
    const system = [...labelled, ...merged.contexts.map((text) => contextLabel(event, undefined, text))];
    if (system.length > 0) appendMessage(run, systemMessage(system.join('\n\n')));
  } else
    appendMessage(run, userMessage(merged.contexts.map((text) => stopContext(text, event)).join('\n\n')));
  // Sent back to work: an answer it gave no longer stands; it must answer again.
  if (role.kind === 'subagent') role.answer?.withdraw();
  return 'continue';
}
