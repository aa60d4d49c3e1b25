import type { Usage } from './model-client.js';

/** USD per million tokens of one model. `cacheWrite` is the 5-minute cache write, the kind hookloop's breakpoints make. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** When PRICE_TABLE was read (ISO date). */
export const PRICES_READ_ON = '2026-11-30';

/**
 * List prices of known models in USD per million tokens, read on PRICES_READ_ON from Anthropic's
 * pricing and model overview pages (platform.claude.com/docs: about-claude/pricing, models/…/overview).
 * Standard tier, no batch discount, no long-context surcharge. Claude Haiku 5.5 is priced in its
 * lower band (prompts up to 100 000 tokens). Keys are model ids; dated snapshots
 * (`claude-haiku-4-5-20251001`) use their base id. OpenAI-compatible servers are not listed: the
 * same model costs differently on each host, so their runs report `total_cost_usd: null`.
 */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  'claude-fable-5-1': { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  'claude-fable-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  'claude-opus-5-5': { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 },
  'claude-opus-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-8': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-7': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  'claude-sonnet-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  'claude-sonnet-4-6': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

/** The price of `model`: an exact id, or a dated snapshot of a listed id (`<id>-YYYYMMDD`). Undefined when unknown. */
export function priceOf(model: string): ModelPrice | undefined {
  return PRICE_TABLE[model] ?? PRICE_TABLE[model.replace(/-\d{8}$/, '')];
}

/** What `usage` cost on `model`, in USD; undefined when the model's price is unknown. */
export function costUsd(model: string, usage: Usage): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  const dollars =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    (usage.cacheReadInputTokens ?? 0) * price.cacheRead +
    (usage.cacheCreationInputTokens ?? 0) * price.cacheWrite;
  return dollars / 1_000_000;
}

/** The cost of a run's per-model usage in USD: 0 with no model requests, null when any model used has no known price. */
export function totalCostUsd(modelUsage: Readonly<Record<string, Usage>>): number | null {
  let total = 0;
  for (const [model, usage] of Object.entries(modelUsage)) {
    const cost = costUsd(model, usage);
    if (cost === undefined) return null;
    total += cost;
  }
  return total;
}
