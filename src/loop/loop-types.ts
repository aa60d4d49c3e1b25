import type { ToolResultMessage } from '../messages/messages.js';
import type { PendingCall } from '../session/pending-calls.js';
import type { ModelClient } from '../model/model-client.js';
import type { UsageTally } from '../model/usage.js';
import type { CompactionSetup } from './compaction.js';
import type { RunResult } from './run-options.js';

/*
 * The shapes the loop's phases pass each other (agent-loop.ts), in their own file so that the
 * phases' helpers can name them without importing the loop.
 */

/** How the loop ended: a RunResult without the session-level totals the caller adds. */
export type LoopEnd = Omit<RunResult, 'sessionId' | 'durationMs' | 'usage' | 'modelUsage' | 'permissionDenials' | 'messages' | 'numTurns'>;

/**
 * Which stop event ends the loop's turns. `Stop` for the main session; `SubagentStop` for a
 * subagent, with its `agent_type` (the matcher value) and `agent_transcript_path`.
 */
export type StopEvent = { readonly event: 'Stop' } | { readonly event: 'SubagentStop'; readonly agentType: string; readonly transcriptPath: string };

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
 * What makes one run of the loop the main session's, a subagent's or an agent hook's. The run's
 * context (RunContext: tools, policy, hooks, identity in `state.agent`) says with what it runs;
 * these say how its turns go.
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
  readonly stop: StopEvent;
  /** Usage of every request of this loop is added here. */
  readonly totals: UsageTally;
  readonly countTurn: () => number;
  /** Automatic compaction between turns (the main session); absent: never. */
  readonly compaction?: CompactionSetup;
  /** Background (`async`) hooks deliver into this loop before each request and may wake it when it stops (the main session). */
  readonly background: boolean;
  /** A prompt that waits for the first chance to be delivered (`midTurn`: after a tool batch; else the model had stopped). */
  readonly queuedPrompt?: (midTurn: boolean) => Promise<void>;
  readonly answer?: RequiredAnswer;
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
  /** What PostToolBatch reports for this call: the model's original input, the model-visible response. */
  readonly batchEntry: { tool_name: string; tool_input: unknown; tool_use_id: string; tool_response: unknown };
}

/** How a batch ended: `continue` to the next model turn, or a terminal reason. */
export type BatchEnd =
  | { readonly kind: 'continue' }
  | { readonly kind: 'hook_stopped' | 'aborted_tools' | 'aborted' }
  | { readonly kind: 'tool_deferred'; readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown }; readonly pending: readonly PendingCall[] };
