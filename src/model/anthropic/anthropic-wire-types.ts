import { z } from 'zod';

/**
 * The Messages API stream events hookloop reads, as Zod schemas: loose objects (new fields are
 * fine) that pin down only what the accumulator uses. An event that does not match is a malformed
 * event; an event of an unknown `type` is skipped (the API may add types).
 */
const usage = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
});

const contentBlock = z.looseObject({ type: z.string() });

/** One parsed stream event of a type the accumulator handles. */
export const anthropicStreamEvent = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('message_start'),
    message: z.looseObject({ model: z.string().nullish(), usage: usage.nullish() }),
  }),
  z.looseObject({ type: z.literal('content_block_start'), index: z.number(), content_block: contentBlock }),
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number(),
    delta: z.looseObject({ type: z.string() }),
  }),
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number() }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: usage.nullish(),
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
]);

/** A stream event the accumulator handles. */
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEvent>;

/** The event types `anthropicStreamEvent` knows; others are skipped. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
]);

/** Token counts as the Messages API names them (on `message_start` and `message_delta`). */
export type AnthropicUsage = z.infer<typeof usage>;
