import { randomBytes } from 'node:crypto';
import { HookEngine } from '../hooks/hook-engine.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import {
  DEFAULT_MAX_TURNS,
  DEFAULT_STOP_CONTINUATIONS,
  type LoopEnd,
  type LoopOptions,
} from '../loop/loop-types.js';
import { HOOK_STOPPED_CONTINUATION } from '../loop/hook-text.js';
import { makeEmitter, type RunContext } from '../loop/run-context.js';
import type { RunObserver } from '../loop/run-events.js';
import { SessionState } from '../loop/session-state.js';
import { parentObserver, subagentTraceparent } from './subagent-events.js';
import { runSubagentTurns } from './subagent-turns.js';
import type { ModelClient, Usage } from '../model/model-client.js';
import { emptyTally } from '../model/usage.js';
import type { Approver, PermissionMode } from '../permissions/types.js';
import { agentTranscriptPath } from '../session/paths.js';
import { CallsWaiting } from '../session/pending-calls.js';
import type { ResumedSession } from '../session/resume.js';
import { TranscriptWriter } from '../transcript/transcript-writer.js';
import { subagentSubpath } from '../session/store-keys.js';
import type { SessionStoreEntry } from '../session/session-store.js';
import { ToolFailure, type AnyTool, type ToolContext } from '../tools/define-tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentInput, AgentOutput } from './agent-tool.js';
import { countToolUse, emptyToolStats, type ToolStats } from './tool-stats.js';
import { environmentLines } from '../prompt/environment.js';
import { renderSubagentPrompt } from '../prompt/system-prompt.js';

/** What the session lends its subagents besides its RunContext. */
export interface SubagentSetup {
  /** Write `subagents/agent-<id>.jsonl` next to the session's transcript (the session writes one). */
  readonly transcript: boolean;
  /** The client for an agent's `model` (an Agent call's `model`, else the definition's); undefined: the session's model. */
  readonly agentModel?: (model: string) => ModelClient | undefined;
}

/** Tools a subagent is never offered: subagents do not start subagents (as in Claude Code), and StructuredOutput belongs to agent hooks. */
const NEVER_INSIDE = new Set(['Agent', 'Task', 'StructuredOutput']);

/** A subagent's id: `a` and 16 hex digits, as Claude Code's. */
export function newAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`;
}

/**
 * One Agent call: a subagent runs the loop (agent-loop.ts) with the definition's system prompt and
 * tools, on the parent's policy, approver, sandbox, hooks and environment, as its own hook identity
 * (`agent_id` `a` + 16 hex, `agent_type` = the definition's name on every event it fires):
 * SubagentStart (its `additionalContext` follows the task prompt as system text) → turns →
 * SubagentStop (a block sends it back to work, at most 8 times). Its conversation is its own and is
 * written to `<session>/subagents/agent-<id>.jsonl`.
 *
 * Resolves with the final answer as Claude Code's Agent output. Rejects with a ToolFailure (the
 * model sees its message) when the subagent did not complete; `endsRun` when a hook inside ended
 * the run (`continue: false`, a PermissionRequest interrupt), which then ends the parent's run too;
 * with CallsWaiting when calls inside wait for a decision (see subagentOutcome).
 */
export async function runAgentSubagent(
  parent: RunContext,
  setup: SubagentSetup,
  input: AgentInput,
  definition: AgentDefinition,
  context: ToolContext,
  agentId = newAgentId(),
): Promise<AgentOutput> {
  const sub = openSubagent(parent, setup, input, definition, agentId, context.signal);
  return subagentOutcome(
    sub,
    await runSubagentTurns(parent, sub.run, sub.loop, input.prompt, { toolUseId: context.toolUseId }),
  );
}

/** A subagent's run context, its loop's options, and what its output reports (see runAgentSubagent). */
export interface OpenSubagent {
  readonly run: RunContext;
  readonly loop: LoopOptions;
  readonly agentId: string;
  readonly definition: AgentDefinition;
  readonly input: AgentInput;
  readonly model: ModelClient;
  readonly started: number;
  readonly transcript: boolean;
  readonly seen: { usage?: Usage; tools: string[]; calls: number; stats: ToolStats };
}

/**
 * The subagent `agentId` of `definition` for an Agent call with `input`, ready to run: a new one,
 * or (`resumed`) one whose conversation is read back from its transcript, which its writer continues.
 */
export function openSubagent(
  parent: RunContext,
  setup: SubagentSetup,
  input: AgentInput,
  definition: AgentDefinition,
  agentId: string,
  signal: AbortSignal,
  resumed?: ResumedSession,
): OpenSubagent {
  const transcriptPath = agentTranscriptPath(parent.state.transcriptPath, agentId);
  const requested = input.model ?? definition.model;
  const model =
    (requested !== undefined && requested !== 'inherit' ? setup.agentModel?.(requested) : undefined) ??
    parent.model;
  const seen: OpenSubagent['seen'] = { tools: [], calls: 0, stats: emptyToolStats() };
  const run = childRun(
    parent,
    setup,
    definition,
    agentId,
    transcriptPath,
    model,
    signal,
    (event) => {
      if (event.type === 'model_response') seen.usage = event.usage;
      if (event.type === 'tool_result') {
        seen.calls++;
        if (!seen.tools.includes(event.toolName)) seen.tools.push(event.toolName);
        countToolUse(seen.stats, event.toolName, event.output);
      }
    },
    resumed,
  );
  let turns = 0;
  const loop: LoopOptions = {
    model,
    // The definition's body is the prompt; hookloop adds what every subagent needs to know.
    system: renderSubagentPrompt(
      definition.prompt,
      environmentLines({
        cwd: parent.state.cwd,
        git: false,
        ...(run.state.model !== undefined ? { model: run.state.model } : {}),
      }),
    ),
    maxTurns: definition.maxTurns ?? DEFAULT_MAX_TURNS,
    maxStopContinuations: DEFAULT_STOP_CONTINUATIONS,
    role: { kind: 'subagent', agentType: definition.name, transcriptPath },
    totals: emptyTally(),
    countTurn: () => ++turns,
  };
  return {
    run,
    loop,
    agentId,
    definition,
    input,
    model,
    started: Date.now(),
    transcript: setup.transcript,
    seen,
  };
}

/**
 * The Agent call's output once the subagent's loop ended `end`. A subagent whose calls wait
 * (`tool_deferred`) rejects with CallsWaiting (each call with its `agentId` and `agentType`): the
 * calls are in its transcript, the Agent call waits for them (agents/waiting-subagent.ts). Without
 * a transcript nothing could resume it, so it fails as unfinished.
 */
export function subagentOutcome(sub: OpenSubagent, end: LoopEnd): AgentOutput {
  const { definition, input, seen, run } = sub;
  switch (end.terminalReason) {
    case 'completed':
      break;
    case 'hook_stopped':
    case 'aborted_tools':
      throw new ToolFailure(HOOK_STOPPED_CONTINUATION, { endsRun: end.terminalReason });
    case 'aborted':
      throw new ToolFailure('Interrupted by user: the subagent was stopped before it finished');
    case 'tool_deferred':
      if (sub.transcript && end.pending !== undefined && end.pending.length > 0) {
        throw new CallsWaiting(
          end.pending.map((call) => ({ ...call, agentId: sub.agentId, agentType: definition.name })),
          end.deferredToolUse,
        );
      }
      throw new ToolFailure(
        `The ${definition.name} agent did not finish (tool_deferred): its calls can wait for a decision only when the session writes transcripts`,
      );
    default:
      throw new ToolFailure(
        `The ${definition.name} agent did not finish (${end.terminalReason}): ${end.result || 'no answer'}`,
      );
  }
  const usage = seen.usage ?? { inputTokens: 0, outputTokens: 0 };
  const wire = {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
    cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
    output_tokens: usage.outputTokens,
  };
  return {
    status: 'completed',
    prompt: input.prompt,
    agentId: sub.agentId,
    agentType: definition.name,
    toolsUsed: seen.tools,
    content: [{ type: 'text', text: end.result }],
    resolvedModel: run.state.model ?? sub.model.name,
    totalDurationMs: Date.now() - sub.started,
    // Claude Code reports the last request's context size here, not a sum (subagent-start-stop).
    totalTokens:
      wire.input_tokens +
      wire.cache_creation_input_tokens +
      wire.cache_read_input_tokens +
      wire.output_tokens,
    totalToolUseCount: seen.calls,
    usage: wire,
    toolStats: seen.stats,
  };
}

/**
 * The subagent's own context: its state (same session, transcript path and prompt id as hooks see
 * them; its own id, type and cwd; a mode no looser than the parent's), conversation, tools and
 * transcript; everything else is the parent's. Its observers: its transcript and `watch`; the
 * parent's hear its hook starts and outcomes, system messages and warnings as they are, and its
 * model requests, tool calls and decisions tagged with its id (subagent-events.ts).
 */
function childRun(
  parent: RunContext,
  setup: SubagentSetup,
  definition: AgentDefinition,
  agentId: string,
  transcriptPath: string,
  model: ModelClient,
  signal: AbortSignal,
  watch: RunObserver,
  resumed: ResumedSession | undefined,
): RunContext {
  const mode = effectiveMode(parent.policy.mode, definition.permissionMode);
  const policy = mode === parent.policy.mode ? parent.policy : parent.policy.withMode(mode);
  const state = new SessionState({
    sessionId: parent.state.sessionId,
    transcriptPath: parent.state.transcriptPath,
    projectDir: parent.state.projectDir,
    cwd: parent.state.cwd,
    mode: policy,
  });
  state.promptId = parent.state.promptId;
  state.model = parent.state.model;
  state.agent = { id: agentId, type: definition.name, typeOnEveryEvent: true };
  const observers: RunObserver[] = [watch, parentObserver(parent, state.agent)];
  let writer: TranscriptWriter | undefined;
  if (setup.transcript) {
    writer = new TranscriptWriter(
      {
        path: transcriptPath,
        sessionId: parent.state.sessionId,
        facts: state,
        sidechain: { agentId },
        ...(resumed ? { resume: resumed } : {}),
        ...mirrorOption(parent, agentId),
      },
      (error) => parent.emit({ type: 'warning', text: error.message }),
    );
    observers.unshift(writer.observer);
  }
  // A hook inside the subagent may read agent_transcript_path as well as transcript_path: both are on disk before it runs.
  const ownWriter = writer;
  const flushTranscript = ownWriter
    ? () => (parent.flushTranscript?.(), ownWriter.flush())
    : parent.flushTranscript;
  return {
    ...parent,
    ...(flushTranscript ? { flushTranscript } : {}),
    state,
    hooks: agentEngine(parent, definition),
    messages: [...(resumed?.messages ?? [])],
    tools: new ToolRegistry(offeredTools(parent.tools.list(), definition)),
    policy,
    approver: oneQuestionAtATime(parent.approver),
    model,
    signal,
    permissionDenials: [],
    emit: makeEmitter(observers),
    ...subagentTraceparent(parent, state.agent),
  };
}

/** The writer option that copies subagent `agentId`'s lines to the session store, under its subpath. */
function mirrorOption(
  parent: RunContext,
  agentId: string,
): { mirror?: (entries: SessionStoreEntry[]) => void } {
  const mirror = parent.transcriptMirror;
  if (mirror === undefined) return {};
  const subpath = subagentSubpath(agentId);
  return { mirror: (entries) => mirror.send(subpath, entries) };
}

/**
 * The hooks a subagent runs: the session's engine, or, when the definition brings front-matter
 * hooks, an engine with the session's handlers first and the agent's after them (so they run for
 * this subagent's events only). Phase boundaries still reach the session's engine (hot reload).
 */
function agentEngine(parent: RunContext, definition: AgentDefinition): HookEngine {
  if (definition.hooks === undefined || definition.hooks.length === 0) return parent.hooks;
  const engine = new HookEngine();
  const handlers = parent.hooks.list();
  for (const handler of handlers) engine.add(handler);
  // Ids key the engine's failure watch: the agent's handlers get ids the session's do not use.
  const top = Math.max(0, ...handlers.map((handler) => handler.id));
  while (engine.allocateId() < top);
  registerSettingsHandlers(engine, definition.hooks, parent.state.projectDir, {
    configDir: parent.configDir,
  });
  engine.onBoundary((phase, info) => parent.hooks.boundary(phase, info));
  return engine;
}

/**
 * The tools a subagent of `definition` is offered: its `tools` (all when absent) minus its
 * `disallowedTools`, never Agent/Task/StructuredOutput. A name matches a tool by its name, the
 * tool part of a rule (`Bash(git *)` → Bash) or an MCP server prefix (`mcp__github`).
 */
export function offeredTools(
  tools: readonly AnyTool[],
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools'>,
): AnyTool[] {
  const matches = (names: readonly string[], tool: AnyTool) =>
    names.some((entry) => {
      const name = entry.replace(/\(.*\)$/s, '').trim();
      return (
        name === '*' || name === tool.name || (name.startsWith('mcp__') && tool.name.startsWith(`${name}__`))
      );
    });
  return tools.filter(
    (tool) =>
      !NEVER_INSIDE.has(tool.name) &&
      (definition.tools === undefined || matches(definition.tools, tool)) &&
      !matches(definition.disallowedTools ?? [], tool),
  );
}

const serialApprovers = new WeakMap<Approver, Approver>();

/**
 * The session's approver, asked one question at a time: subagents side by side must not put two
 * questions on one terminal at once. Shared by every subagent of the approver's session.
 */
function oneQuestionAtATime(approver: Approver): Approver {
  let serial = serialApprovers.get(approver);
  if (serial === undefined) {
    let queue: Promise<unknown> = Promise.resolve();
    serial = {
      ...(approver.awaitsHuman !== undefined ? { awaitsHuman: approver.awaitsHuman } : {}),
      approve: (request) => {
        const answer = queue.then(() =>
          request.signal.aborted ? ('deny' as const) : approver.approve(request),
        );
        queue = answer.catch(() => undefined);
        return answer;
      },
    };
    serialApprovers.set(approver, serial);
  }
  return serial;
}

/** How strict each mode is: a subagent's `permissionMode` counts only when it is stricter than the parent's. */
const STRICTNESS: Record<PermissionMode, number> = {
  bypassPermissions: 0,
  acceptEdits: 1,
  default: 2,
  dontAsk: 3,
  plan: 3,
};

/**
 * The mode a subagent runs in: the definition's `permissionMode` when it is stricter than the
 * parent's, else the parent's. Claude Code lets an agent's mode replace a `default` parent's (an
 * agent with `bypassPermissions` would bypass); hookloop never lets a subagent do what its parent
 * could not. `auto` counts as `dontAsk`; `plan` and `dontAsk`, neither stricter, keep the parent's.
 */
export function effectiveMode(
  parent: PermissionMode,
  requested: PermissionMode | 'auto' | undefined,
): PermissionMode {
  if (requested === undefined) return parent;
  const wanted = requested === 'auto' ? 'dontAsk' : requested;
  return STRICTNESS[wanted] > STRICTNESS[parent] ? wanted : parent;
}
