/**
 * hookloop's scripted turns played through the AI SDK: a `MockLanguageModelV3` whose stream parts
 * are made from each turn of a ScriptedModel (text in two deltas, each call's input in three
 * pieces with its tool-call part, a finish with usage; a scripted API error as an APICallError),
 * wrapped by `fromAiSdk`. Runs through it exercise the adapter with everything the scripted model
 * can say.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { fromAiSdk } from '../../src/ai-sdk/index.js';
import { ProviderError, type ModelClient, type ModelResponse } from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { finish, streamOf, usage } from './mock-parts.js';

/** A ModelClient that answers `turns` (lenient: `done (script exhausted)` afterwards) through fromAiSdk. */
export function scriptedAiSdkModel(turns: readonly ScriptTurn[]): ModelClient {
  const script = new ScriptedModel(turns, { mode: 'lenient', record: false });
  const mock = new MockLanguageModelV3({
    provider: 'scripted.ai-sdk',
    modelId: 'scripted',
    doStream: async () => {
      let response: ModelResponse;
      try {
        response = await script.complete({ system: '', messages: [], tools: [] });
      } catch (error) {
        throw asApiCallError(error);
      }
      return streamOf(partsOf(response));
    },
  });
  // No retries: a scripted error answers once, as it does from the scripted model itself.
  return fromAiSdk(mock, { retry: { maxRetries: 0 }, modelFor: () => mock });
}

function asApiCallError(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  return new APICallError({
    message: error.message,
    url: 'http://127.0.0.1/scripted',
    requestBodyValues: {},
    ...(error.status !== undefined ? { statusCode: error.status } : {}),
    data: { error: { type: 'api_error', message: error.message } },
  });
}

function partsOf(response: ModelResponse): LanguageModelV3StreamPart[] {
  const { text, toolCalls } = response.message;
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (text) {
    const half = Math.ceil(text.length / 2);
    parts.push(
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: text.slice(0, half) },
      { type: 'text-delta', id: 't0', delta: text.slice(half) },
      { type: 'text-end', id: 't0' },
    );
  }
  for (const call of toolCalls) {
    const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
    const third = Math.ceil(input.length / 3);
    parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
    for (const piece of [input.slice(0, third), input.slice(third, 2 * third), input.slice(2 * third)])
      if (piece) parts.push({ type: 'tool-input-delta', id: call.id, delta: piece });
    parts.push(
      { type: 'tool-input-end', id: call.id },
      { type: 'tool-call', toolCallId: call.id, toolName: call.name, input },
    );
  }
  parts.push(finish(toolCalls.length > 0 ? 'tool-calls' : 'stop', usage(10, 5)));
  return parts;
}
