import type { Usage } from './model-client.js';

/** Token counts of a run: the sum over every model request, and the same sum per model id. */
export interface UsageTally {
  total: Usage;
  readonly byModel: Record<string, Usage>;
}

/** An empty tally. */
export function emptyTally(): UsageTally {
  return { total: { inputTokens: 0, outputTokens: 0 }, byModel: {} };
}

/** The sum of two Usages; cache counts appear in the sum when either has them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const cacheRead = (a.cacheReadInputTokens ?? 0) + (b.cacheReadInputTokens ?? 0);
  const cacheCreation = (a.cacheCreationInputTokens ?? 0) + (b.cacheCreationInputTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(a.cacheReadInputTokens !== undefined || b.cacheReadInputTokens !== undefined
      ? { cacheReadInputTokens: cacheRead }
      : {}),
    ...(a.cacheCreationInputTokens !== undefined || b.cacheCreationInputTokens !== undefined
      ? { cacheCreationInputTokens: cacheCreation }
      : {}),
  };
}

/** Adds one request's usage to the tally, under `model` (the id the provider reported). */
export function tallyUsage(tally: UsageTally, model: string, usage: Usage): void {
  tally.total = addUsage(tally.total, usage);
  tally.byModel[model] = addUsage(tally.byModel[model] ?? { inputTokens: 0, outputTokens: 0 }, usage);
}
