import type { StopReason } from '../model/model-client.js';
import type { AiSdkFinishReason } from './spec-types.js';

/** The unified finish reasons of both specification versions (v2 adds `unknown`). */
type UnifiedFinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

/**
 * A finish part's `finishReason` (a v2 string or a v3 `{ unified, raw }`) as hookloop's
 * StopReason: `stop` → `end_turn`, `tool-calls` → `tool_use`, `length` → `max_tokens`,
 * `content-filter` → `refusal`. A message with tool calls that the provider says stopped, or
 * stopped for no known reason, is `tool_use` (some servers answer `stop`). `other` and `unknown`
 * give the provider's raw reason when there is one. `error` is returned as `error`: the stream's error part, which the adapter
 * reports first, says what went wrong.
 */
export function mapFinishReason(reason: AiSdkFinishReason | undefined, hasToolCalls: boolean): StopReason {
  const unified = (typeof reason === 'object' ? reason.unified : reason) as UnifiedFinishReason | undefined;
  const raw = typeof reason === 'object' ? reason.raw : undefined;
  switch (unified) {
    case undefined:
    case 'stop':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'tool-calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return 'refusal';
    case 'error':
      return 'error';
    case 'other':
    case 'unknown':
      return raw || (hasToolCalls ? 'tool_use' : 'end_turn');
    default: {
      const unknown: never = unified;
      return unknown;
    }
  }
}
