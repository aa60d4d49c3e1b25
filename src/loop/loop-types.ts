import type { ToolResultMessage } from '../messages/messages.js';
import type { ModelClient } from '../model/model-client.js';
import type { PendingCall } from '../session/pending-calls.js';
import type { UsageTally } from '../model/usage.js';
import type { CompactionSetup } from './compaction.js';

/*
 * The shapes the loop's phases pass each other (agent-loop.ts), in their own file so that the
 * phases' helpers can name them without importing the loop.
 */

/** How a run ended, in Claude Code's `terminal_reason` vocabulary where it has one (`stop_hook_prevented`: a Stop hook's `continue: false`). */
export type TerminalReason =
  | 'completed'
  | 'hook_stopped'
  | 'tool_deferred'
  | 'max_turns'
  | 'aborted'
  | 'aborted_tools'
  | 'api_error'
  | 'prompt_blocked'
  | 'blocking_limit'
  | 'stop_hook_prevented'
  | 'budget_exhausted';

/** How the loop ended: what a RunResult says before the session adds its totals (turns, usage, denials, messages). */
export interface LoopEnd {
  /** The final assistant text ("" when a hook ended the run). */
  readonly result: string;
  readonly isError: boolean;
  readonly terminalReason: TerminalReason;
  /** The last model stop reason, or `tool_deferred`; null when the model was never called. */
  readonly stopReason: string | null;
  readonly deferredToolUse?: { readonly id: string; readonly name: string; readonly input: unknown };
  /**
   * A run that ended `tool_deferred`: every call waiting for a decision (deferred by a PreToolUse
   * hook, left for later by a PermissionRequest hook's `defer` or the approver's `later`, or after
   * such a call in the same message), with the frozen input a decision applies to. They have no
   * result yet; decide them with `AgentSession.resume(decisions)` or `resumeAgent`, also from a new
   * process (`loadSession`, or `hookloop --resume ID --approve ID --deny ID=why`). A call waiting
   * inside an Agent call's subagent has `agentId`, `agentType` and `parentToolUseId` (the Agent call,
   * which waits with it and is not itself decidable). hookloop's.
   */
  readonly pending?: readonly PendingCall[];
  readonly apiErrorStatus?: number | null;
}

/** Most model requests of a run (the main session's, a subagent's) unless its options say otherwise. */
export const DEFAULT_MAX_TURNS = 100;

/** How many extra turns stop hooks may force by default (Claude Code's cap: 8), for the main session and subagents alike. */
export const DEFAULT_STOP_CONTINUATIONS = 8;

/**
 * A subagent that must answer through a tool before it may stop (an agent hook's StructuredOutput):
 * `given` says whether it has; a stop block `withdraw`s the answer (it must answer again); a turn
 * that ends in text without one gets `reminder` as user text and another turn.
 */
export interface RequiredAnswer {
  readonly given: () => boolean;
  readonly withdraw: () => void;
  readonly reminder: string;
}

/**
 * Whose turns these are: the one value the loop reads to tell the main session from a subagent.
 * - `main`: Stop ends its turns (a model failure fires StopFailure); background (`async`) hooks
 *   deliver into it before each request and may wake it when it stops; `compaction` compacts it
 *   between turns (absent: never); `queuedPrompt` waits for the first chance to be delivered
 *   (`midTurn`: after a tool batch; else the model had stopped).
 * - `subagent`: SubagentStop ends its turns, with its `agentType` (the matcher value) and
 *   `transcriptPath` (`agent_transcript_path`); `answer` when it must answer through a tool
 *   before it may stop (an agent hook's StructuredOutput).
 */
export type RunRole =
  | {
      readonly kind: 'main';
      readonly compaction?: CompactionSetup;
      readonly queuedPrompt?: (midTurn: boolean) => Promise<void>;
    }
  | {
      readonly kind: 'subagent';
      readonly agentType: string;
      readonly transcriptPath: string;
      readonly answer?: RequiredAnswer;
    };

/**
 * What makes one run of the loop the main session's, a subagent's or an agent hook's. The run's
 * context (RunContext: tools, policy, hooks, identity in `state.agent`) says with what it runs;
 * these say how its turns go, `role` whose they are.
 *
 * Contract: `countTurn` is called once per model request and returns its number (1-based, counted
 * over the whole session for the main loop); past `maxTurns` the loop ends `max_turns`.
 */
export interface LoopOptions {
  readonly model: ModelClient;
  readonly system: string;
  readonly maxTurns: number;
  /** How many extra turns stop hooks may force (Claude Code: 8); past it their block is overridden. */
  readonly maxStopContinuations: number;
  readonly role: RunRole;
  /** Usage of every request of this loop is added here. */
  readonly totals: UsageTally;
  readonly countTurn: () => number;
  /** End the run (`budget_exhausted`) after the answer whose cost, with all before it in `totals`, passes this many dollars. */
  readonly maxBudgetUsd?: number;
}

/** One call's way through the pipeline, as the batch needs it. */
export interface CallOutcome {
  /** The paired result: present whatever happened, except for a call that waits for a decision (`pending`). */
  readonly result?: ToolResultMessage;
  /**
   * Set when the call waits for a decision that may come from another process (see pending-call.ts):
   * it has no result yet. The call itself, or (an Agent call) the calls waiting inside its subagent.
   */
  readonly pending?: readonly PendingCall[];
  /** Labelled context texts for the system message after the results, in Pre, Post order. */
  readonly contexts: readonly string[];
  /** Set when a hook ended the run: `hook_stopped` (continue:false) or `aborted_tools` (PermissionRequest interrupt). */
  readonly stop?: 'hook_stopped' | 'aborted_tools';
  /** Set when a PreToolUse hook deferred the call: the run ends and reports it. */
  readonly deferred?: { readonly id: string; readonly name: string; readonly input: unknown };
  /** User texts to send after the batch's results (a PermissionDenied hook's `retry`). */
  readonly notes?: readonly string[];
  /**
   * What PostToolBatch reports for this call (the model's original input, the model-visible
   * response), made only when PostToolBatch fires: re-validating the model's input costs more than
   * the rest of a call's bookkeeping, and most runs have no PostToolBatch hook.
   */
  readonly batchEntry: () => BatchEntry;
}

/** One entry of PostToolBatch's `tool_calls`, in the reference's field order. */
export interface BatchEntry {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  readonly tool_response: unknown;
}

/** How a batch ended: `continue` to the next model turn, or a terminal reason. */
export type BatchEnd =
  | { readonly kind: 'continue' }
  | { readonly kind: 'hook_stopped' | 'aborted_tools' | 'aborted' }
  | {
      readonly kind: 'tool_deferred';
      readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown };
      readonly pending: readonly PendingCall[];
    };

/** What became of a prompt that may be a slash command (prompt-expansion.ts). */
export type Expansion =
  | { readonly kind: 'none' }
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'ended'; readonly result: string }
  | { readonly kind: 'expanded'; readonly context: readonly string[] };
