import type { Usage } from '../model/model-client.js';
import type { AiSdkUsage } from './spec-types.js';

/**
 * A finish part's usage as hookloop's Usage, in tokens. hookloop counts `inputTokens` without the
 * cached part, as the Anthropic API does: v3 gives `inputTokens.noCache` (or the total less the
 * cache reads and writes); v2 gives the total and `cachedInputTokens`, which is taken out. Output
 * tokens include reasoning tokens. Missing counts are 0; cache counts appear only when non-zero.
 */
export function mapUsage(usage: AiSdkUsage | undefined): Usage {
  if (usage === undefined) return { inputTokens: 0, outputTokens: 0 };
  if (typeof usage.inputTokens === 'object' || typeof usage.outputTokens === 'object') {
    const v3 = usage as Extract<AiSdkUsage, { inputTokens: object }>;
    const cacheRead = v3.inputTokens?.cacheRead ?? 0;
    const cacheWrite = v3.inputTokens?.cacheWrite ?? 0;
    const total = v3.inputTokens?.total ?? 0;
    return withCache(
      v3.inputTokens?.noCache ?? Math.max(0, total - cacheRead - cacheWrite),
      v3.outputTokens?.total ?? 0,
      cacheRead,
      cacheWrite,
    );
  }
  const v2 = usage as Extract<AiSdkUsage, { totalTokens: unknown }>;
  const cached = v2.cachedInputTokens ?? 0;
  return withCache(Math.max(0, (v2.inputTokens ?? 0) - cached), v2.outputTokens ?? 0, cached, 0);
}

function withCache(input: number, output: number, cacheRead: number, cacheWrite: number): Usage {
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cacheRead > 0 ? { cacheReadInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheCreationInputTokens: cacheWrite } : {}),
  };
}
