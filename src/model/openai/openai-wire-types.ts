import { z } from 'zod';

/**
 * The chat-completions stream chunk as hookloop reads it, tolerant of the dialects
 * OpenAI-compatible servers really send: `index` or `id` missing on tool-call pieces, `arguments`
 * sent as an object instead of a string, `content: null` next to tool calls, usage on every chunk
 * or only on the last one (with empty `choices`), cached-token counts under several names.
 */
const toolCallPiece = z.looseObject({
  index: z.number().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z
    .looseObject({
      name: z.string().nullish(),
      arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
    })
    .nullish(),
});

const usage = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  // DeepSeek reports cache hits and misses; Moonshot puts cached_tokens at the top level.
  prompt_cache_hit_tokens: z.number().nullish(),
  cached_tokens: z.number().nullish(),
});

/** One `chat.completion.chunk`. */
export const chatCompletionChunk = z.looseObject({
  model: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            tool_calls: z.array(toolCallPiece).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usage.nullish(),
});

/** A parsed chunk. */
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunk>;
/** One tool-call piece of a chunk's delta. */
export type ToolCallPiece = z.infer<typeof toolCallPiece>;
/** Token counts of a chunk. */
export type ChatUsage = z.infer<typeof usage>;
