import type { ModelClient } from '../model/model-client.js';
import { ProviderRequestError } from '../model/provider-errors.js';
import type { ModelSelection } from './select-model.js';

/** Attempts on the main model before a fallback takes over: Claude Code 2.1.328 switched after three overloaded answers (measured). */
export const MAIN_MODEL_ATTEMPTS_BEFORE_FALLBACK = 3;

type ProviderSelection = Extract<ModelSelection, { provider: 'anthropic' | 'openai' }>;

/**
 * The selections `--fallback-model A,B` asks for: the main one with its retries cut to
 * MAIN_MODEL_ATTEMPTS_BEFORE_FALLBACK attempts, then one per fallback model on the same provider
 * and server (normal retries). A scripted selection has no models to switch between: undefined.
 */
export function fallbackSelections(
  selection: ModelSelection,
  models: readonly string[],
): { main: ProviderSelection; fallbacks: ProviderSelection[] } | undefined {
  if (models.length === 0 || (selection.provider !== 'anthropic' && selection.provider !== 'openai'))
    return undefined;
  const retry = { ...selection.options.retry, maxRetries: MAIN_MODEL_ATTEMPTS_BEFORE_FALLBACK - 1 };
  const main = { ...selection, options: { ...selection.options, retry } } as ProviderSelection;
  const fallbacks = models.map(
    (model) => ({ ...selection, options: { ...selection.options, model } }) as ProviderSelection,
  );
  return { main, fallbacks };
}

/**
 * A client that asks `main` first, and when it fails in a way another model might not — overloaded,
 * rate-limited, a server error, a lost connection: a retryable ProviderRequestError after the
 * client's own retries — asks each fallback in turn, saying so through `notify`. Every request
 * starts with the main model again (Claude Code tries it again at the start of each turn). Errors
 * that another model would get too (a rejected key, a bad request) are thrown at once.
 */
export function withFallbacks(
  main: ModelClient,
  fallbacks: readonly { readonly id: string; readonly client: ModelClient }[],
  notify: (text: string) => void,
): ModelClient {
  const id = (main as { model?: unknown }).model;
  return {
    name: main.name,
    ...(typeof id === 'string' ? { model: id } : {}),
    async complete(request) {
      try {
        return await main.complete(request);
      } catch (error) {
        let last = error;
        for (const fallback of fallbacks) {
          if (!switchable(last) || request.signal?.aborted) break;
          notify(`${describe(last)}; switching to the fallback model ${fallback.id}`);
          try {
            return await fallback.client.complete(request);
          } catch (fallbackError) {
            last = fallbackError;
          }
        }
        throw last;
      }
    },
  };
}

function switchable(error: unknown): boolean {
  return error instanceof ProviderRequestError && error.retryable;
}

function describe(error: unknown): string {
  return error instanceof ProviderRequestError ? error.describe() : String(error);
}
