import { deepFreeze } from '../messages/messages.js';
import type { ModelClient, ModelResponse } from '../model/model-client.js';
import { durabilityOf, inProcessDurability, journaled, type Durability } from './durability.js';

/**
 * The run's model client with every request a journaled step named `step` (`step#2`, `step#3`
 * for further requests of the same turn, a model-call hook's retry): a replayed turn gets the
 * recorded answer, frozen again, and the provider is not asked (nor paid) twice. Streaming events
 * are reported only while the request really runs. In-process it is `model` itself.
 */
export function journaledModel(
  run: { readonly durability?: Durability },
  model: ModelClient,
  step: string,
): ModelClient {
  if (durabilityOf(run) === inProcessDurability) return model;
  return {
    name: model.name,
    complete: async (request) => {
      const response: ModelResponse = await journaled(run, step, () => model.complete(request));
      return deepFreeze(response);
    },
  };
}
