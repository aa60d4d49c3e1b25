import { randomUUID } from 'node:crypto';
import type { ModelStreamEvent } from '../model/stream-events.js';

/**
 * `--include-partial-messages`: the model's answer as it streams, as the Messages API events Claude
 * Code forwards in its `stream_event` lines — `message_start`, `content_block_start`,
 * `content_block_delta` (`text_delta`, `input_json_delta`), `content_block_stop`, `message_delta`
 * (stop reason, output tokens), `message_stop` — rebuilt from any provider's deltas, so an OpenAI-
 * compatible model streams the same lines. Each line also carries `parent_tool_use_id` (null in
 * the main session) and a fresh `uuid`, as Claude Code 2.1.328 writes them (measured).
 *
 * Returns a translator for one session: it keeps which content block is open between deltas.
 */
export function partialMessageTranslator(): (event: ModelStreamEvent) => Record<string, unknown>[] {
  let blocks = 0;
  let open: { index: number; kind: 'text' | 'tool'; toolIndex?: number } | undefined;
  const line = (event: Record<string, unknown>) => ({
    type: 'stream_event',
    event,
    parent_tool_use_id: null,
    uuid: randomUUID(),
  });
  const close = (): Record<string, unknown>[] => {
    if (open === undefined) return [];
    const stop = line({ type: 'content_block_stop', index: open.index });
    open = undefined;
    return [stop];
  };
  return (event) => {
    switch (event.type) {
      case 'message_start':
        blocks = 0;
        open = undefined;
        return [
          line({
            type: 'message_start',
            message: {
              type: 'message',
              role: 'assistant',
              model: event.model ?? null,
              content: [],
              stop_reason: null,
              stop_sequence: null,
            },
          }),
        ];
      case 'text_delta': {
        const lines = open?.kind === 'text' ? [] : close();
        if (open === undefined) {
          open = { index: blocks++, kind: 'text' };
          lines.push(
            line({
              type: 'content_block_start',
              index: open.index,
              content_block: { type: 'text', text: '' },
            }),
          );
        }
        lines.push(
          line({
            type: 'content_block_delta',
            index: open.index,
            delta: { type: 'text_delta', text: event.text },
          }),
        );
        return lines;
      }
      case 'tool_call_start': {
        const lines = close();
        open = { index: blocks++, kind: 'tool', toolIndex: event.index };
        lines.push(
          line({
            type: 'content_block_start',
            index: open.index,
            content_block: { type: 'tool_use', id: event.id, name: event.name, input: {} },
          }),
        );
        return lines;
      }
      case 'tool_call_delta':
        // Providers send a tool's arguments after its start; a delta for another tool has no open block to go to.
        if (open?.kind !== 'tool' || open.toolIndex !== event.index) return [];
        return [
          line({
            type: 'content_block_delta',
            index: open.index,
            delta: { type: 'input_json_delta', partial_json: event.argumentsDelta },
          }),
        ];
      case 'message_stop':
        return [
          ...close(),
          line({
            type: 'message_delta',
            delta: { stop_reason: event.stopReason, stop_sequence: null },
            usage: { output_tokens: event.usage.outputTokens },
          }),
          line({ type: 'message_stop' }),
        ];
    }
  };
}
