import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdk } from '../../src/ai-sdk/index.js';
import { defineTool, HookEngine, ProviderRequestError, runAgent, userMessage } from '../../src/index.js';
import { tempProject } from '../support/scripted-run.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';

/** One streamGenerateContent answer (`alt=sse`): a `data:` line per chunk. */
function geminiStream(chunks: readonly unknown[]): { kind: 'sse'; text: string; chunkBytes: number } {
  return {
    kind: 'sse',
    text: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''),
    chunkBytes: 7,
  };
}

const CALL_TURN = geminiStream([
  {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { text: 'Counting the files.' },
            { functionCall: { name: 'CountFiles', args: { folder: 'src' } }, thoughtSignature: 'c2lnLTE=' },
          ],
        },
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 9, totalTokenCount: 49 },
    modelVersion: 'gemini-2.5-flash',
  },
  {
    candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 },
    modelVersion: 'gemini-2.5-flash',
  },
]);
const ANSWER_TURN = geminiStream([
  {
    candidates: [
      { content: { role: 'model', parts: [{ text: 'There are 3 files.' }] }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: {
      promptTokenCount: 80,
      candidatesTokenCount: 6,
      totalTokenCount: 86,
      cachedContentTokenCount: 32,
    },
    modelVersion: 'gemini-2.5-flash',
  },
]);

describe('hookloop/ai-sdk with @ai-sdk/google against a local streamGenerateContent mock', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('runs one tool-call round trip: hooks see the call, the result and the thought signature go back', async () => {
    server = await startReplayServer([CALL_TURN, ANSWER_TURN]);
    const google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'test-key' });
    const seen: unknown[] = [];
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'CountFiles' }, ({ tool_name, tool_input }) => {
      seen.push({ tool_name, tool_input });
      return undefined;
    });
    const countFiles = defineTool({
      name: 'CountFiles',
      description: 'Counts the files of a folder',
      inputSchema: z.strictObject({ folder: z.string() }),
      readOnly: true,
      handler: ({ folder }) => `${folder}: 3 files`,
    });
    const result = await runAgent('how many files are in src?', {
      model: fromAiSdk(google('gemini-2.5-flash')),
      projectDir: tempProject(),
      tools: [countFiles],
      hooks,
      permissions: { mode: 'bypassPermissions' },
    });

    expect(result.result).toBe('There are 3 files.');
    expect(seen).toEqual([{ tool_name: 'CountFiles', tool_input: { folder: 'src' } }]);
    expect(result.usage).toMatchObject({
      inputTokens: 40 + 48,
      outputTokens: 12 + 6,
      cacheReadInputTokens: 32,
    });

    const [first, second] = server.requests;
    expect(first!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(first!.headers['x-goog-api-key']).toBe('test-key');
    expect(first!.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'how many files are in src?' }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'CountFiles',
              description: 'Counts the files of a folder',
              parameters: {
                type: 'object',
                properties: { folder: { type: 'string' } },
                required: ['folder'],
              },
            },
          ],
        },
      ],
    });
    const contents = second!.body['contents'] as unknown[];
    // The provider names each call with an id of its own; the result must come back under the same one.
    const callId = result.messages.flatMap((message) =>
      message.role === 'assistant' ? message.toolCalls : [],
    )[0]!.id;
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Counting the files.' },
          {
            functionCall: { id: callId, name: 'CountFiles', args: { folder: 'src' } },
            thoughtSignature: 'c2lnLTE=',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: callId,
              name: 'CountFiles',
              response: { name: 'CountFiles', content: 'src: 3 files' },
            },
          },
        ],
      },
    ]);
  });

  it("retries Gemini's 429 RESOURCE_EXHAUSTED and reports a 400 INVALID_ARGUMENT in one line, not retried", async () => {
    const googleError = (code: number, status: string, message: string) => ({
      kind: 'json' as const,
      status: code,
      body: { error: { code, message, status } },
    });
    server = await startReplayServer([
      googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded'),
      ANSWER_TURN,
      googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'),
    ]);
    const google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'test-key' });
    const sleeps: number[] = [];
    const model = fromAiSdk(google('gemini-2.5-flash'), {
      retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 },
    });
    const ask = () => model.complete({ system: '', messages: [userMessage('hi')], tools: [] });
    expect((await ask()).message.text).toBe('There are 3 files.');
    expect(sleeps).toEqual([500]);
    const error = await ask().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ProviderRequestError);
    expect((error as ProviderRequestError).describe()).toBe(
      'google.generative-ai: HTTP 400 INVALID_ARGUMENT: Invalid JSON payload received. (not retried)',
    );
    expect(server.requests).toHaveLength(3);
  });
});
