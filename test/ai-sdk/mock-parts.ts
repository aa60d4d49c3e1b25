/** Stream parts and usage records of the AI SDK's v3 specification, for tests that drive `MockLanguageModelV3`. */
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';

/** A v3 usage record: `input` tokens in all, of which `cacheRead` were read from the cache. */
export function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input - cacheRead - cacheWrite, cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** A finish part; `raw` is the provider's own reason (default: the unified one; null: none). */
export function finish(
  unified: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other',
  counts: LanguageModelV3Usage = usage(10, 5),
  raw: string | null = unified,
): LanguageModelV3StreamPart {
  return { type: 'finish', finishReason: { unified, raw: raw ?? undefined }, usage: counts };
}

/** The parts of a text answer: start, one delta per piece, end, finish. */
export function textParts(pieces: readonly string[], counts = usage(10, 5)): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-1', modelId: 'mock-model-2026' },
    { type: 'text-start', id: 't0' },
    ...pieces.map((delta) => ({ type: 'text-delta' as const, id: 't0', delta })),
    { type: 'text-end', id: 't0' },
    finish('stop', counts),
  ];
}

/** A stream result of `parts`, delivered without delays. */
export function streamOf(parts: readonly LanguageModelV3StreamPart[]) {
  return {
    stream: simulateReadableStream({ chunks: [...parts], chunkDelayInMs: null, initialDelayInMs: null }),
  };
}
