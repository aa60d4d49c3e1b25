import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describeError } from '../errors.js';
import type { SubagentAnswer, SubagentRequest } from '../hooks/hook-services.js';
import { mergeBlocking, mergeCommon } from '../hooks/merge.js';
import type { ModelVerdict } from '../hooks/transports/model-verdict.js';
import { systemMessage, userMessage, type AssistantMessage } from '../messages/messages.js';
import { headlessApprover } from '../permissions/approvers.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { safePathPart } from '../session/path-part.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { distinctCallIds, type DistinctCalls } from './distinct-call-ids.js';
import { modelResponse } from './model-call-hooks.js';
import { contextLabel, stopBlockingError, stopFeedback, STRUCTURED_OUTPUT_ENFORCE } from './hook-text.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';
import type { RunEvent } from './run-events.js';
import { SessionState } from './session-state.js';
import { structuredOutputTool } from './structured-output-tool.js';
import { runToolBatch } from './tool-batch.js';

/** `agent_type` of an agent hook's subagent on SubagentStart/SubagentStop (and their matcher value). */
export const AGENT_HOOK_TYPE = 'agent-hook';
/** Most model requests one agent-hook subagent may make. */
export const MAX_SUBAGENT_TURNS = 10;
/** How many times SubagentStop hooks may send the subagent back to work (as Stop's cap). */
const MAX_STOP_CONTINUATIONS = 8;

/** The system prompt of an agent hook's subagent (the reference's is not recorded; this one is hookloop's). */
export const AGENT_HOOK_SYSTEM = [
  'You are a verification subagent started by an agent hook. The user message says what to check and ends with the hook event as JSON.',
  'Use the read-only tools you have if you need to look at files. Then call the StructuredOutput tool exactly once:',
  '{"ok": true} when the condition holds, {"ok": false, "reason": "…"} when it does not, with a reason the main agent can act on.',
].join('\n');

/**
 * An agent hook's bounded sub-run of the loop (spec §8 `agent`, hook-type-agent): SubagentStart →
 * model turns with the parent's read-only tools plus StructuredOutput → SubagentStop. Its tool calls
 * go through the same pipeline (PreToolUse, the policy in `dontAsk` mode, PostToolUse, PostToolBatch)
 * with `agent_id` on their payloads; the batch that calls StructuredOutput ends the sub-run (no
 * PostToolBatch for it, as the reference). A turn that ends in text gets the StructuredOutput
 * reminder; SubagentStop may block (another turn, `Stop hook feedback:` as for Stop). At most
 * MAX_SUBAGENT_TURNS requests; agent hooks do not run inside it. Never rejects.
 */
export async function runSubagent(parent: RunContext, request: SubagentRequest): Promise<SubagentAnswer> {
  const answer: { verdict?: ModelVerdict } = {};
  const run = childRun(parent, request, (verdict) => (answer.verdict = verdict));
  const agent = { id: run.state.agent!.id, transcript: agentTranscriptPath(parent.state.transcriptPath, run.state.agent!.id) };
  const start = mergeCommon(await fireHook(run, 'SubagentStart', {}, AGENT_HOOK_TYPE));
  appendMessage(run, userMessage(request.prompt));
  if (start.contexts.length > 0) appendMessage(run, systemMessage(start.contexts.map((text) => contextLabel('SubagentStart', undefined, text)).join('\n\n')));
  let continuations = 0;
  for (let turn = 1; turn <= MAX_SUBAGENT_TURNS; turn++) {
    if (request.signal.aborted) return { kind: 'failed', error: 'aborted' };
    let assistant: AssistantMessage;
    let repeated: DistinctCalls['repeated'];
    try {
      ({ message: assistant, repeated } = distinctCallIds((await modelResponse(run, { caller: 'subagent', turn, system: AGENT_HOOK_SYSTEM, messages: [...run.messages], tools: run.tools.specs(), signal: request.signal })).message));
    } catch (error) {
      return { kind: 'failed', error: `subagent model request failed: ${describeError(error)}` };
    }
    appendMessage(run, assistant);
    if (assistant.toolCalls.length > 0) {
      const batch = await runToolBatch(run, assistant, () => answer.verdict !== undefined, repeated);
      if (batch.kind !== 'continue' && answer.verdict === undefined) return { kind: 'failed', error: `the subagent's run ended (${batch.kind}) before it gave a verdict` };
      if (answer.verdict === undefined) continue;
    }
    const stop = await subagentStop(run, agent.transcript, assistant.text, continuations > 0);
    if (stop.length > 0 && continuations < MAX_STOP_CONTINUATIONS) {
      // Sent back to work: the verdict it gave (if any) no longer stands; it must answer again.
      continuations++;
      delete answer.verdict;
      appendFeedback(run, stop);
      continue;
    }
    if (answer.verdict !== undefined) return { kind: 'answered', ...answer.verdict };
    appendMessage(run, userMessage(STRUCTURED_OUTPUT_ENFORCE));
  }
  return { kind: 'failed', error: `the subagent gave no verdict through StructuredOutput within ${MAX_SUBAGENT_TURNS} turns` };
}

/**
 * The subagent's own context: its state (same session, transcript and prompt id; its own agent id;
 * `dontAsk` mode), conversation, tools (the parent's read-only ones and StructuredOutput), policy
 * and signal. Its observers hear hook outcomes and warnings only: its messages are not the session's.
 */
function childRun(parent: RunContext, request: SubagentRequest, onAnswer: (verdict: ModelVerdict) => void): RunContext {
  const projectDir = parent.state.projectDir;
  const cwd = typeof request.input['cwd'] === 'string' ? request.input['cwd'] : parent.state.cwd;
  const state = new SessionState({ sessionId: parent.state.sessionId, transcriptPath: parent.state.transcriptPath, projectDir, cwd, mode: 'dontAsk' });
  state.promptId = parent.state.promptId;
  state.agent = { id: randomUUID(), type: AGENT_HOOK_TYPE, typeOnEveryEvent: false };
  const readOnly = parent.tools.list().filter((tool) => (tool.kind === 'read' || (tool.readOnly && tool.kind !== 'bash')) && tool.name !== 'StructuredOutput');
  return {
    ...parent,
    state,
    messages: [],
    tools: new ToolRegistry([...readOnly, structuredOutputTool(onAnswer)]),
    policy: new PermissionPolicy({ rules: { allow: [], ask: [], deny: [] }, mode: 'dontAsk', workspace: parent.workspace, projectDir }),
    approver: headlessApprover,
    // An agent hook's own dontAsk refusals are not a classifier's: no PermissionDenied.
    autoMode: false,
    signal: request.signal,
    permissionDenials: [],
    emit: (event: RunEvent) => {
      if (event.type === 'hook_outcome' || event.type === 'system_message' || event.type === 'warning') parent.emit(event);
    },
    // mcp_tool hooks inside reach the session's MCP servers as the parent's do.
    services: { model: parent.model, nested: true, ...(parent.services.callMcpTool ? { callMcpTool: parent.services.callMcpTool } : {}) },
  };
}

/** SubagentStop: the blocks that send the subagent back to work (empty when it may stop). */
async function subagentStop(run: RunContext, transcript: string, lastText: string, active: boolean) {
  const fields = { stop_hook_active: active, agent_transcript_path: transcript, last_assistant_message: lastText, background_tasks: [], session_crons: [] };
  return mergeBlocking(await fireHook(run, 'SubagentStop', fields, AGENT_HOOK_TYPE), 'SubagentStop').blocks;
}

/** The subagent sees a block as the main agent sees a Stop block: user feedback, plus the labelled system text for JSON blocks. */
function appendFeedback(run: RunContext, blocks: ReturnType<typeof mergeBlocking>['blocks']): void {
  appendMessage(run, userMessage(blocks.map((block) => stopFeedback(block.reason)).join('\n\n')));
  const labelled = blocks.filter((block) => block.labelled !== undefined).map((block) => stopBlockingError(block.labelled!, 'SubagentStop'));
  if (labelled.length > 0) appendMessage(run, systemMessage(labelled.join('\n\n')));
}

/** Claude Code's place for a subagent transcript: `<transcript dir>/<session>/subagents/agent-<id>.jsonl`. */
function agentTranscriptPath(transcriptPath: string, agentId: string): string {
  return path.join(path.dirname(transcriptPath), path.basename(transcriptPath, '.jsonl'), 'subagents', `agent-${safePathPart(agentId)}.jsonl`);
}
