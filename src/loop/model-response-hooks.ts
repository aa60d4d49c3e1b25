import type { ModelCaller } from '../hooks/events/model-events.js';
import type { SyntheticResponse } from '../hooks/merge/model-calls.js';
import { assistantMessage } from '../messages/messages.js';
import type { ModelResponse } from '../model/model-client.js';
import { fireHook, type RunContext } from './run-context.js';

/** Which request an answer belongs to, as PostModelResponse reports it. */
export interface AnsweredCall {
  readonly caller: ModelCaller;
  readonly turn: number;
  /** A PreModelRequest hook answered: no request was made. */
  readonly synthetic: boolean;
  /** The model asked (the answer's own `model` wins when it has one). */
  readonly model: string;
}

/**
 * PostModelResponse: `updatedText` replaces the text, `dropToolCalls` removes calls; when every
 * call is dropped a `tool_use` stop becomes `end_turn` (the turn ends as a plain answer).
 *
 * Why dropping is sound: a dropped call is taken out of the assistant message before the message
 * joins the conversation, so no hook, tool, transcript line or later request ever sees it; nothing
 * ran, so no result is owed (pairing covers the calls of the conversation, and it has
 * none). A hook cannot add a call this way: ids it names that the answer does not have do nothing.
 * Never throws beyond what fireHook throws (nothing: hook failures are outcomes).
 */
export async function afterResponse(
  view: RunContext,
  call: AnsweredCall,
  response: ModelResponse,
): Promise<ModelResponse> {
  const { message, usage } = response;
  const after = await fireHook(view, 'PostModelResponse', {
    caller: call.caller,
    turn: call.turn,
    model: response.model ?? call.model,
    synthetic: call.synthetic,
    response: {
      text: message.text,
      tool_calls: message.toolCalls.map((toolCall) => ({
        id: toolCall.id,
        name: toolCall.name,
        input: toolCall.input,
      })),
      stop_reason: response.stopReason ?? 'end_turn',
    },
    usage: {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      ...(usage.cacheReadInputTokens !== undefined
        ? { cache_read_input_tokens: usage.cacheReadInputTokens }
        : {}),
      ...(usage.cacheCreationInputTokens !== undefined
        ? { cache_creation_input_tokens: usage.cacheCreationInputTokens }
        : {}),
    },
  });
  const dropped = new Set(after.dropToolCalls);
  const calls = message.toolCalls.filter((toolCall) => !dropped.has(toolCall.id));
  const text = after.updatedText ?? message.text;
  if (calls.length === message.toolCalls.length && text === message.text) return response;
  const stopReason =
    calls.length === 0 && response.stopReason === 'tool_use' ? 'end_turn' : response.stopReason;
  return { ...response, message: assistantMessage(text, calls), stopReason };
}

/**
 * The answer a PreModelRequest hook gave instead of a request: its text, zero usage and no tool
 * calls — a hook never makes a call the model did not (no forged protocol), so the turn ends as a
 * plain answer and Stop runs.
 */
export function syntheticAnswer(answer: SyntheticResponse, model: string): ModelResponse {
  return {
    message: assistantMessage(answer.text ?? '', []),
    usage: { inputTokens: 0, outputTokens: 0 },
    stopReason: answer.stop_reason ?? 'end_turn',
    model,
  };
}
