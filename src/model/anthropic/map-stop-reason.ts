import type Anthropic from '@anthropic-ai/sdk';
import type { StopReason } from '../model-client.js';

/**
 * The Messages API `stop_reason` as hookloop's StopReason (which uses the Messages vocabulary).
 * The switch is exhaustive over the SDK's union, so a value a new SDK adds fails to compile here
 * until it is mapped; a value the server sends that the SDK does not know passes through as is.
 * `null` (a stream cut before `message_delta`) is derived from whether tool calls were made.
 */
export function mapStopReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (reason === null || reason === undefined) return hasToolCalls ? 'tool_use' : 'end_turn';
  const known = reason as Anthropic.StopReason;
  switch (known) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'pause_turn':
    case 'refusal':
    case 'model_context_window_exceeded':
      return known;
    default: {
      const unknown: never = known;
      return unknown;
    }
  }
}
