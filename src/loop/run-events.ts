import type { HookEventName } from '../hooks/event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../hooks/handler.js';
import type { Message, ToolResultMessage } from '../messages/messages.js';
import type { ModelCaller } from '../hooks/events/model-events.js';
import type { ModelRequest, Usage } from '../model/model-client.js';
import type { ModelStreamEvent } from '../model/stream-events.js';
import type { DecidingHook, PermissionDecisionRecord } from './permission-decision/record.js';
import type { PendingCall } from '../session/pending-calls.js';
import type { TaintChange } from '../session/taint-lines.js';

/**
 * What a run reports as it goes, for lifecycle logs, audits and UIs. Observers receive these in
 * order; they are notifications only and cannot change the run (decisions belong to hooks).
 */
export type RunEvent =
  | {
      readonly type: 'hook_started';
      readonly event: HookEventName;
      readonly matchValue: string | undefined;
      readonly handlers: number;
    }
  /**
   * One external handler (command, http, prompt, agent, mcp_tool; not an in-process callback) is
   * about to run. `invocation` pairs it with its `hook_outcome` (unique in the run); `toolUseId`
   * is the call of a tool event; `agentId` is set inside a subagent.
   */
  | {
      readonly type: 'hook_handler_started';
      readonly invocation: string;
      readonly event: HookEventName;
      readonly matchValue: string | undefined;
      readonly matcher: string | undefined;
      readonly origin: HandlerOrigin;
      readonly background: boolean;
      readonly toolUseId?: string;
      readonly agentId?: string;
    }
  /** A handler's answer; `invocation`, `toolUseId` and `agentId` as in its `hook_handler_started` (absent for a dispatch that did not report its start). */
  | {
      readonly type: 'hook_outcome';
      readonly event: HookEventName;
      readonly matchValue: string | undefined;
      readonly outcome: HandlerOutcome;
      readonly invocation?: string;
      readonly toolUseId?: string;
      readonly agentId?: string;
    }
  /** A prompt starts its turn (`send`): `promptId` is the `prompt_id` its hooks see. */
  | { readonly type: 'prompt_started'; readonly promptId: string; readonly prompt: string }
  /** The prompt's turn ended (see RunResult.terminalReason). */
  | {
      readonly type: 'prompt_finished';
      readonly promptId: string;
      readonly terminalReason: string;
      readonly isError: boolean;
    }
  /** The session ended (SessionEnd fired). */
  | { readonly type: 'session_ended'; readonly reason: string }
  /** A tool call starts its pipeline (before PreToolUse); `input` is the model's. */
  | {
      readonly type: 'tool_started';
      readonly toolName: string;
      readonly toolUseId: string;
      readonly input: unknown;
    }
  /** The call was allowed and its handler is about to run (content checks, handler, then PostToolUse). */
  | { readonly type: 'tool_executing'; readonly toolName: string; readonly toolUseId: string }
  /** How the call was settled and by whom (see PermissionDecisionRecord); `durationMs`: the decision's own time. */
  | {
      readonly type: 'permission_decision';
      readonly toolName: string;
      readonly toolUseId: string;
      readonly record: PermissionDecisionRecord;
      readonly durationMs: number;
    }
  | { readonly type: 'message'; readonly message: Message }
  /** A UserPromptSubmit hook rewrote the prompt (`updatedPrompt`): the next user message is `sent`; the transcript keeps `typed` on its line. */
  | { readonly type: 'prompt_rewritten'; readonly typed: string; readonly sent: string }
  /** A tool batch ended with calls waiting for a decision (no results yet): the transcript saves them for `--resume ID --approve …`. */
  | { readonly type: 'calls_pending'; readonly calls: readonly PendingCall[] }
  /** The session's taint changed (hookloop extension): a call wrote files, or a person trusted them; the transcript keeps it for a resume. */
  | { readonly type: 'session_taint'; readonly change: TaintChange }
  /**
   * The conversation was compacted: `messages` (the summary as a user message, then the context
   * SessionStart(compact) hooks added) replaced the whole history. `preTokens` is the context size
   * the model last reported before it; `summary` is the summarizer's raw answer.
   */
  | {
      readonly type: 'compaction';
      readonly trigger: 'auto' | 'manual';
      readonly preTokens: number;
      readonly summary: string;
      readonly messages: readonly Message[];
      readonly durationMs: number;
    }
  /** `model`: the model asked for (the client's name). */
  | { readonly type: 'model_request'; readonly turn: number; readonly model?: string }
  /**
   * A model-call hook changed a request (or answered it: `synthetic`): `request` is what was sent
   * (or would have been). The transcript records it as a `hookloop_model_request` attachment line.
   */
  | {
      readonly type: 'model_request_sent';
      readonly caller: ModelCaller;
      readonly turn: number;
      readonly synthetic: boolean;
      readonly request: ModelRequest;
    }
  /** Deltas of the answer being streamed (streaming providers only; see ModelStreamEvent). */
  | { readonly type: 'model_stream'; readonly turn: number; readonly event: ModelStreamEvent }
  /** `model`: the model that answered, when the provider says; `stopReason`: the provider's finish reason. */
  | {
      readonly type: 'model_response';
      readonly turn: number;
      readonly text: string;
      readonly toolCalls: number;
      readonly usage: Usage;
      readonly model?: string;
      readonly stopReason?: string | null;
    }
  | {
      readonly type: 'permission';
      readonly toolName: string;
      readonly toolUseId: string;
      readonly behavior: 'allow' | 'deny' | 'ask';
      readonly source: string;
    }
  /**
   * A hook replaced a call's input (`by`: PreToolUse, PermissionRequest) or output (PostToolUse).
   * For an input: `input` is what runs (validated and normalized), `hook` the handler whose rewrite applied.
   */
  | {
      readonly type: 'input_rewritten';
      readonly toolName: string;
      readonly toolUseId: string;
      readonly by: string;
      readonly input?: unknown;
      readonly hook?: DecidingHook;
    }
  /** A call's paired result; `output` is the handler's structured output (after a PostToolUse `updatedToolOutput`) when it ran and succeeded. */
  | {
      readonly type: 'tool_result';
      readonly toolName: string;
      readonly toolUseId: string;
      readonly result: ToolResultMessage;
      readonly ran: boolean;
      readonly output?: unknown;
    }
  | { readonly type: 'system_message'; readonly text: string }
  | { readonly type: 'warning'; readonly text: string }
  /** An MCP server's log message (`notifications/message`) or a tool call's progress (`notifications/progress`), one line of text. */
  | {
      readonly type: 'mcp_notice';
      readonly server: string;
      readonly kind: 'log' | 'progress';
      readonly text: string;
      readonly level?: string;
      readonly toolUseId?: string;
    }
  /**
   * A subagent starts: an Agent call's (`toolUseId`: the parent's Agent call) or an agent hook's
   * (`traceparent`: its hook span's, when the run is traced). Its own run events follow as
   * `subagent_event`, its hooks as `hook_handler_started`/`hook_outcome` with its `agentId`, then
   * `subagent_finished` (see agents/subagent-events.ts).
   */
  | {
      readonly type: 'subagent_started';
      readonly agentId: string;
      readonly agentType: string;
      readonly prompt: string;
      readonly toolUseId?: string;
      readonly traceparent?: string;
    }
  /** One of a subagent's own run events (its model requests, tool calls and decisions), tagged with the subagent; never its messages or stream deltas. */
  | {
      readonly type: 'subagent_event';
      readonly agentId: string;
      readonly agentType: string;
      readonly event: SubagentRunEvent;
    }
  /** The subagent's loop ended (see RunResult.terminalReason). */
  | {
      readonly type: 'subagent_finished';
      readonly agentId: string;
      readonly agentType: string;
      readonly terminalReason: string;
      readonly isError: boolean;
    };

/** The run events a subagent reports to its parent inside `subagent_event`. */
export type SubagentRunEvent = Extract<
  RunEvent,
  {
    readonly type:
      | 'model_request'
      | 'model_request_sent'
      | 'model_response'
      | 'tool_started'
      | 'permission'
      | 'permission_decision'
      | 'input_rewritten'
      | 'tool_executing'
      | 'tool_result'
      | 'calls_pending';
  }
>;

/** Receives RunEvents. Must not throw; a throwing observer is ignored after its error is reported once. */
export type RunObserver = (event: RunEvent) => void;
