import {
  ENDING_EVENTS,
  matchValueOf,
  mergeOutcomes,
  type HookEventName,
  type HookResult,
} from '../hooks/event-table.js';
import type { HookPayload } from '../hooks/event-schemas.js';
import type { BackgroundHooks } from '../hooks/async-hooks.js';
import type { BoundaryInfo, FireOptions, HookEngine, PhaseBoundary } from '../hooks/hook-engine.js';
import type { HookServices } from '../hooks/hook-services.js';
import type { HandlerOutcome, RegisteredHandler } from '../hooks/handler.js';
import { deepFreeze, type Message } from '../messages/messages.js';
import type { ModelClient } from '../model/model-client.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { RunSandbox } from '../sandbox/run-sandbox.js';
import type { Approver } from '../permissions/types.js';
import type { McpServerSet } from '../mcp/mcp-servers.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { RunEvent, RunObserver } from './run-events.js';
import type { SessionState } from './session-state.js';
import type { TranscriptMirror } from '../session/store-mirror.js';
import { journaled, type Durability } from './durability.js';

/** Everything one run shares between its phases. Built once by `runAgent`; phases never replace it. */
export interface RunContext {
  readonly state: SessionState;
  readonly messages: Message[];
  readonly hooks: HookEngine;
  readonly tools: ToolRegistry;
  readonly policy: PermissionPolicy;
  readonly approver: Approver;
  /** `--permission-mode auto` (see `RunOptions.permissions.autoMode`): the mode's refusals fire PermissionDenied. */
  readonly autoMode: boolean;
  readonly workspace: Workspace;
  readonly signal: AbortSignal;
  /** Extra environment of tool processes: `RunOptions.env` plus what SessionStart env files (`CLAUDE_ENV_FILE`) export. */
  readonly env: Record<string, string>;
  /** Variable names kept out of tool processes (`sandbox.credentials.envVars` with `mode: "deny"`). */
  readonly withheldEnv: readonly string[];
  /** The run's OS sandbox for Bash, when `sandbox.enabled` and it could start; closed by SessionEnd. */
  readonly sandbox?: RunSandbox;
  /** The folder that plays Claude Code's `~/.claude` for this run (transcripts, `session-env/`); see session/paths.ts. */
  readonly configDir: string;
  readonly emit: (event: RunEvent) => void;
  /**
   * False when no observer hears `emit` (no transcript, timeline, tracer or caller's observer): then
   * nothing measures how long hooks and decisions took, since nobody would read it. Default true.
   */
  readonly observed?: boolean;
  /** Writes the transcript lines collected so far (the JSONL writer batches them); called before every hook dispatch. */
  readonly flushTranscript?: () => void;
  /** The session store's copy of the transcripts (`RunOptions.sessionStore`): the writers feed it, the session settles it. */
  readonly transcriptMirror?: TranscriptMirror;
  readonly permissionDenials: { tool_name: string; tool_use_id: string; tool_input: unknown }[];
  /** The session's model client: the loop's turns, prompt hooks and agent-hook subagents all use it. */
  readonly model: ModelClient;
  /** The run's background (`async`) hooks: their answers wait here for the next model request. */
  readonly background: BackgroundHooks;
  /**
   * How the hooks of this run reach the model (prompt and agent hooks); built per run by the loop
   * (see subagent.ts), without `runSubagent` inside an agent hook's own subagent.
   */
  readonly services: HookServices;
  /** The session's MCP servers (`RunOptions.mcpServers`): connected by startSession, closed after SessionEnd. */
  readonly mcp?: McpServerSet;
  /**
   * The W3C `traceparent` of the span open for `key` (a hook invocation id or a tool call id; of
   * subagent `agentId`'s calls when given) when the run is traced (telemetry/run-tracer.ts); handed
   * to hook and Bash processes as `TRACEPARENT`.
   */
  readonly traceparent?: (key: string, agentId?: string) => string | undefined;
  /** Where steps are journaled (`RunOptions.durability`); absent: in-process (durability.ts). */
  readonly durability?: Durability;
}

/**
 * Appends a message to the conversation and tells observers at once (synchronously), so a
 * transcript writer has the line on disk before the next hook that could read it runs.
 */
export function appendMessage(run: RunContext, message: Message): void {
  run.messages.push(message);
  run.emit({ type: 'message', message });
}

/** Sends a RunEvent to every observer; an observer that throws is reported once as a warning and then skipped. */
export function makeEmitter(observers: readonly RunObserver[]): (event: RunEvent) => void {
  const broken = new Set<RunObserver>();
  const emit = (event: RunEvent): void => {
    for (const observer of observers) {
      if (broken.has(observer)) continue;
      try {
        observer(event);
      } catch (error) {
        broken.add(observer);
        emit({
          type: 'warning',
          text: `an observer threw and was switched off: ${(error as Error).message}`,
        });
      }
    }
  };
  return emit;
}

const NEVER_ABORTED = new AbortController().signal;
const ALREADY_DONE = Promise.resolve();
/** Numbers hook invocations (unique in the process, so in every run): pairs a handler's start with its outcome. */
let invocationCount = 0;
/** Per event, the result of no hook answering (most events of most runs): made once, frozen. */
const NO_ANSWERS = new Map<HookEventName, unknown>();

/**
 * Fires `event` for the run: builds its payload from the session state (`SessionState.payload`),
 * runs it through the engine's one entry point (`HookEngine.fire`), reports every outcome, and
 * returns the typed merged result (`PreToolUseMerge` for PreToolUse, `BlockingMerge` for Stop, …;
 * see `MergedResult`) with the outcomes in merge order (`outcomes`). `systemMessage`s and
 * `stopReason`s are forwarded to observers (the user: stderr in the CLI), never to the model.
 * Prompt and agent hooks get the run's services; background hooks go to the run's tracker.
 * Every external handler's start is reported (`hook_handler_started`, with an invocation id its
 * `hook_outcome` repeats, the tool call and the subagent), and gets the traceparent of its span.
 * Matchers test the payload field the event table names (`matchField`). Never throws.
 */
export async function fireHook<E extends HookEventName>(
  run: RunContext,
  event: E,
  fields: HookPayload<E>,
): Promise<HookResult<E>> {
  if (!run.hooks.has(event)) return noAnswers(event);
  const input = run.state.payload(event, fields);
  const matched = matchValueOf(event, input as Readonly<Record<string, unknown>>);
  // A hook may read transcript_path: every line so far is in the file before it runs.
  run.flushTranscript?.();
  const ids = invocationIds(input as Readonly<Record<string, unknown>>);
  // One journaled step per firing: a replayed run gets the merged result without running the hooks (or reporting them) again.
  const step = `hook:${event}${ids.agentId !== undefined ? `:${ids.agentId}` : ''}${ids.toolUseId !== undefined ? `:${ids.toolUseId}` : ''}`;
  return journaled(run, step, () =>
    run.hooks.fire(event, input, {
      // SessionEnd and StopFailure report the end of a run, an abort included: the run's aborted
      // signal must not cancel them. Their own timeouts bound them (SessionEnd: 1.5 s by default).
      signal: ENDING_EVENTS.has(event) ? NEVER_ABORTED : run.signal,
      services: run.services,
      background: run.background,
      projectDir: run.state.projectDir,
      timed: run.observed !== false,
      ...reporters(run, event, matched, ids),
    }),
  );
}

/**
 * How one fire reports its handlers to the run's observers (see `fireHook`), or nothing when no
 * observer listens and no span needs a traceparent: then no outcome event is built at all.
 */
function reporters(
  run: RunContext,
  event: HookEventName,
  matched: string | undefined,
  ids: { toolUseId?: string; agentId?: string },
): Pick<FireOptions, 'onStart' | 'onOutcome'> {
  if (run.observed === false && run.traceparent === undefined) return {};
  const invocations = new Map<RegisteredHandler, string>();
  return {
    onStart: (handler) => {
      // In-process callbacks take microseconds: their outcome alone (with its duration) is reported.
      if (handler.origin.transport === 'callback') return undefined;
      const invocation = `hook-${++invocationCount}`;
      invocations.set(handler, invocation);
      run.emit({
        type: 'hook_handler_started',
        invocation,
        event,
        matchValue: matched,
        matcher: handler.matcher,
        origin: handler.origin,
        background: handler.background,
        ...ids,
      });
      const traceparent = run.traceparent?.(invocation);
      return traceparent === undefined ? undefined : { traceparent };
    },
    onOutcome: (outcome, handler) => {
      const invocation = handler === undefined ? undefined : invocations.get(handler);
      run.emit({
        type: 'hook_outcome',
        event,
        matchValue: matched,
        outcome,
        ...(invocation !== undefined ? { invocation } : {}),
        ...ids,
      });
      if (outcome.warning !== undefined) run.emit({ type: 'warning', text: hookWarningText(event, outcome) });
      const output = outcome.output as {
        systemMessage?: unknown;
        continue?: unknown;
        stopReason?: unknown;
      };
      if (typeof output.systemMessage === 'string')
        run.emit({ type: 'system_message', text: output.systemMessage });
      // `stopReason` is for the user, like systemMessage; the model and the JSON result never see it.
      if (output.continue === false && typeof output.stopReason === 'string')
        run.emit({ type: 'system_message', text: `${event} hook stopped the run: ${output.stopReason}` });
    },
  };
}

/**
 * The run reaches a phase boundary (see `PhaseBoundary`): the engine's boundary listeners run, and
 * an event they fire (hot reload's ConfigChange) goes through `fireHook` like any event of the run.
 * Resolves when every listener is done; never rejects.
 */
export function phaseBoundary(
  run: RunContext,
  phase: PhaseBoundary,
  info: Omit<BoundaryInfo, 'fire'> = {},
): Promise<void> {
  if (!run.hooks.watchesBoundaries()) return ALREADY_DONE;
  return run.hooks.boundary(phase, { ...info, fire: (event, fields) => fireHook(run, event, fields) });
}

/**
 * A stopwatch for a time only observers read (a decision's `durationMs`): the milliseconds since
 * it was made, or 0 without a clock reading when nobody observes the run.
 */
export function observerStopwatch(run: RunContext): () => number {
  if (run.observed === false) return () => 0;
  const started = performance.now();
  return () => performance.now() - started;
}

/** The tool call and subagent a payload belongs to, for observers. */
function invocationIds(input: Readonly<Record<string, unknown>>): { toolUseId?: string; agentId?: string } {
  const toolUseId = input['tool_use_id'];
  const agentId = input['agent_id'];
  return {
    ...(typeof toolUseId === 'string' ? { toolUseId } : {}),
    ...(typeof agentId === 'string' ? { agentId } : {}),
  };
}

function noAnswers<E extends HookEventName>(event: E): HookResult<E> {
  let result = NO_ANSWERS.get(event) as HookResult<E> | undefined;
  if (result === undefined) {
    result = deepFreeze({
      ...mergeOutcomes(event, []),
      outcomes: [],
      shortCircuited: false,
    }) as HookResult<E>;
    NO_ANSWERS.set(event, result);
  }
  return result;
}

/**
 * The one warning about an external hook's answer: `PreToolUse hook [<cmd>] (<file>: hooks.PreToolUse[0].hooks[0]): ignored unknown field decision.reason`.
 */
export function hookWarningText(event: HookEventName, outcome: HandlerOutcome): string {
  const where = outcome.origin.location ? ` (${outcome.origin.location})` : '';
  return `${event} hook [${outcome.origin.text}]${where}: ${outcome.warning ?? ''}`;
}

/** The ToolContext a handler gets: the session's cwd and id, extra env, the sandbox, and a setter for `cd`. */
export function toolContext(run: RunContext): ToolContext {
  return toolContextFor(run, undefined);
}

/**
 * `toolContext` with a tool call's own fields added (see `callContext`). One object literal, with
 * every optional field present (undefined when unset): conditional spreads cost a copy each, twice
 * per tool call.
 */
export function toolContextFor(run: RunContext, call: Partial<ToolContext> | undefined): ToolContext {
  return {
    cwd: run.state.cwd,
    projectDir: run.state.projectDir,
    workspace: run.workspace,
    signal: run.signal,
    env: run.env,
    sessionId: run.state.sessionId,
    agentId: run.state.agent?.id,
    withheldEnv: run.withheldEnv,
    sandbox: run.sandbox,
    setCwd: (directory) => {
      run.state.cwd = directory;
    },
    toolUseId: call?.toolUseId,
    approvedPaths: call?.approvedPaths,
    allowRules: call?.allowRules,
    traceparent: call?.traceparent,
    mayRead: call?.mayRead,
  };
}
