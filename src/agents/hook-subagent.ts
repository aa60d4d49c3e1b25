import { randomUUID } from 'node:crypto';
import type { SubagentAnswer, SubagentRequest } from '../hooks/hook-services.js';
import type { ModelVerdict } from '../hooks/transports/model-verdict.js';
import { emptyTally } from '../model/usage.js';
import { headlessApprover } from '../permissions/plain-approvers.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { agentTranscriptPath } from '../session/paths.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { STRUCTURED_OUTPUT_ENFORCE } from '../loop/hook-text.js';
import { DEFAULT_STOP_CONTINUATIONS, type LoopOptions } from '../loop/loop-types.js';
import { hookModelClient } from '../loop/model-call-hooks.js';
import type { RunContext } from '../loop/run-context.js';
import { SessionState } from '../loop/session-state.js';
import { structuredOutputTool } from '../loop/structured-output-tool.js';
import { parentObserver, subagentTraceparent } from './subagent-events.js';
import { runSubagentTurns } from './subagent-turns.js';

/** `agent_type` of an agent hook's subagent on SubagentStart/SubagentStop (and their matcher value). */
export const AGENT_HOOK_TYPE = 'agent-hook';
/** Most model requests one agent-hook subagent may make. */
export const MAX_SUBAGENT_TURNS = 10;

/** The system prompt of an agent hook's subagent (the reference's is not recorded; this one is hookloop's). */
export const AGENT_HOOK_SYSTEM = [
  'You are a verification subagent started by an agent hook. The user message says what to check and ends with the hook event as JSON.',
  'Use the read-only tools you have if you need to look at files. Then call the StructuredOutput tool exactly once:',
  '{"ok": true} when the condition holds, {"ok": false, "reason": "…"} when it does not, with a reason the main agent can act on.',
].join('\n');

/**
 * An agent hook's bounded run of the loop (a settings hook of `type: "agent"`; conformance hook-type-agent): SubagentStart →
 * the loop's turns with the parent's read-only tools plus StructuredOutput → SubagentStop. Its tool
 * calls go through the same pipeline (PreToolUse, the policy in `dontAsk` mode, PostToolUse,
 * PostToolBatch) with `agent_id` on their payloads; the batch that calls StructuredOutput ends the
 * sub-run (no PostToolBatch for it, as the reference). A turn that ends in text gets the
 * StructuredOutput reminder; SubagentStop may block (another turn, `Stop hook feedback:` as for
 * Stop). At most MAX_SUBAGENT_TURNS requests; agent hooks do not run inside it. Never rejects.
 */
export async function runSubagent(parent: RunContext, request: SubagentRequest): Promise<SubagentAnswer> {
  const answer: { verdict?: ModelVerdict } = {};
  const run = childRun(parent, request, (verdict) => (answer.verdict = verdict));
  const transcriptPath = agentTranscriptPath(parent.state.transcriptPath, run.state.agent!.id);
  let turns = 0;
  const loop: LoopOptions = {
    model: run.model,
    system: AGENT_HOOK_SYSTEM,
    maxTurns: MAX_SUBAGENT_TURNS,
    maxStopContinuations: DEFAULT_STOP_CONTINUATIONS,
    role: {
      kind: 'subagent',
      agentType: AGENT_HOOK_TYPE,
      transcriptPath,
      answer: {
        given: () => answer.verdict !== undefined,
        withdraw: () => delete answer.verdict,
        reminder: STRUCTURED_OUTPUT_ENFORCE,
      },
    },
    totals: emptyTally(),
    countTurn: () => ++turns,
  };
  const end = await runSubagentTurns(parent, run, loop, request.prompt, { traceparent: request.traceparent });
  if (answer.verdict !== undefined) return { kind: 'answered', ...answer.verdict };
  switch (end.terminalReason) {
    case 'aborted':
      return { kind: 'failed', error: 'aborted' };
    case 'api_error':
      return { kind: 'failed', error: `subagent model request failed: ${end.result}` };
    case 'max_turns':
      return {
        kind: 'failed',
        error: `the subagent gave no verdict through StructuredOutput within ${MAX_SUBAGENT_TURNS} turns`,
      };
    default:
      return {
        kind: 'failed',
        error: `the subagent's run ended (${end.terminalReason}) before it gave a verdict`,
      };
  }
}

/**
 * The subagent's own context: its state (same session, transcript and prompt id; its own agent id;
 * `dontAsk` mode), conversation, tools (the parent's read-only ones and StructuredOutput), policy
 * and signal. The parent's observers hear its hook starts and outcomes, warnings, and its model
 * requests, tool calls and decisions tagged with its id (subagent-events.ts); its messages are not the session's.
 */
function childRun(
  parent: RunContext,
  request: SubagentRequest,
  onAnswer: (verdict: ModelVerdict) => void,
): RunContext {
  const projectDir = parent.state.projectDir;
  const cwd = typeof request.input['cwd'] === 'string' ? request.input['cwd'] : parent.state.cwd;
  const policy = new PermissionPolicy({
    rules: { allow: [], ask: [], deny: [] },
    mode: 'dontAsk',
    workspace: parent.workspace,
    projectDir,
  });
  const state = new SessionState({
    sessionId: parent.state.sessionId,
    transcriptPath: parent.state.transcriptPath,
    projectDir,
    cwd,
    mode: policy,
  });
  state.promptId = parent.state.promptId;
  state.agent = { id: randomUUID(), type: AGENT_HOOK_TYPE, typeOnEveryEvent: false };
  const readOnly = parent.tools
    .list()
    .filter(
      (tool) =>
        (tool.kind === 'read' || (tool.readOnly && tool.kind !== 'bash')) &&
        !['StructuredOutput', 'Agent', 'Skill', 'TodoWrite', 'TaskStop'].includes(tool.name),
    );
  const child: RunContext = {
    ...parent,
    state,
    messages: [],
    tools: new ToolRegistry([...readOnly, structuredOutputTool(onAnswer)]),
    policy,
    approver: headlessApprover,
    // An agent hook's own dontAsk refusals are not a classifier's: no PermissionDenied.
    autoMode: false,
    signal: request.signal,
    permissionDenials: [],
    emit: parentObserver(parent, state.agent),
    ...subagentTraceparent(parent, state.agent),
    // mcp_tool hooks inside reach the session's MCP servers as the parent's do.
    // A prompt hook inside asks the model through the model-call hooks too (caller "hook").
    services: {
      model: hookModelClient(() => child, parent.model),
      nested: true,
      ...(parent.services.callMcpTool ? { callMcpTool: parent.services.callMcpTool } : {}),
    },
  };
  return child;
}
