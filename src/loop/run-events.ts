import type { HookEventName } from '../hooks/event-names.js';
import type { HandlerOutcome } from '../hooks/handler.js';
import type { Message, ToolResultMessage } from '../messages/messages.js';
import type { ModelCaller } from '../hooks/events/model-events.js';
import type { ModelRequest, Usage } from '../model/model-client.js';
import type { ModelStreamEvent } from '../model/stream-events.js';
import type { PendingCall } from '../session/pending-calls.js';

/**
 * What a run reports as it goes, for lifecycle logs, audits and UIs. Observers receive these in
 * order; they are notifications only and cannot change the run (decisions belong to hooks).
 */
export type RunEvent =
  | { readonly type: 'hook_started'; readonly event: HookEventName; readonly matchValue: string | undefined; readonly handlers: number }
  | { readonly type: 'hook_outcome'; readonly event: HookEventName; readonly matchValue: string | undefined; readonly outcome: HandlerOutcome }
  | { readonly type: 'message'; readonly message: Message }
  /** A UserPromptSubmit hook rewrote the prompt (`updatedPrompt`): the next user message is `sent`; the transcript keeps `typed` on its line. */
  | { readonly type: 'prompt_rewritten'; readonly typed: string; readonly sent: string }
  /** A tool batch ended with calls waiting for a decision (no results yet): the transcript saves them for `--resume ID --approve …`. */
  | { readonly type: 'calls_pending'; readonly calls: readonly PendingCall[] }
  /**
   * The conversation was compacted: `messages` (the summary as a user message, then the context
   * SessionStart(compact) hooks added) replaced the whole history. `preTokens` is the context size
   * the model last reported before it; `summary` is the summarizer's raw answer.
   */
  | { readonly type: 'compaction'; readonly trigger: 'auto' | 'manual'; readonly preTokens: number; readonly summary: string; readonly messages: readonly Message[]; readonly durationMs: number }
  | { readonly type: 'model_request'; readonly turn: number }
  /**
   * A model-call hook changed a request (or answered it: `synthetic`): `request` is what was sent
   * (or would have been). The transcript records it as a `hookloop_model_request` attachment line.
   */
  | { readonly type: 'model_request_sent'; readonly caller: ModelCaller; readonly turn: number; readonly synthetic: boolean; readonly request: ModelRequest }
  /** Deltas of the answer being streamed (streaming providers only; see ModelStreamEvent). */
  | { readonly type: 'model_stream'; readonly turn: number; readonly event: ModelStreamEvent }
  | { readonly type: 'model_response'; readonly turn: number; readonly text: string; readonly toolCalls: number; readonly usage: Usage }
  | { readonly type: 'permission'; readonly toolName: string; readonly toolUseId: string; readonly behavior: 'allow' | 'deny' | 'ask'; readonly source: string }
  | { readonly type: 'input_rewritten'; readonly toolName: string; readonly toolUseId: string; readonly by: string }
  /** A call's paired result; `output` is the handler's structured output (after a PostToolUse `updatedToolOutput`) when it ran and succeeded. */
  | { readonly type: 'tool_result'; readonly toolName: string; readonly toolUseId: string; readonly result: ToolResultMessage; readonly ran: boolean; readonly output?: unknown }
  | { readonly type: 'system_message'; readonly text: string }
  | { readonly type: 'warning'; readonly text: string };

/** Receives RunEvents. Must not throw; a throwing observer is ignored after its error is reported once. */
export type RunObserver = (event: RunEvent) => void;
