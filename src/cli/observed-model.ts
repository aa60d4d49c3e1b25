import { describeError } from '../errors.js';
import type { ModelClient } from '../model/model-client.js';
import { ProviderRequestError } from '../model/provider-errors.js';
import type { RequestLog } from './request-log.js';

/** One line for a failed model request: `anthropic: HTTP 401 authentication_error: invalid x-api-key (not retried)`. */
export function describeModelError(error: unknown): string {
  return error instanceof ProviderRequestError ? error.describe() : describeError(error);
}

/** The model, with every request it receives appended to `requestLog` (when given) and each failure described in `failures`, for stderr. */
export function observedModel(
  model: ModelClient,
  requestLog: RequestLog | undefined,
  failures: string[],
): ModelClient {
  // The provider's model id stays visible (model-call hooks report it as `model`).
  const id = (model as { model?: unknown }).model;
  return {
    name: model.name,
    ...(typeof id === 'string' ? { model: id } : {}),
    complete: (request) => {
      requestLog?.append(request);
      return model.complete(request).catch((error: unknown) => {
        failures.push(describeModelError(error));
        throw error;
      });
    },
  };
}
