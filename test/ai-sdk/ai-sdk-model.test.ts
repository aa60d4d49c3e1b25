import type {
  LanguageModelV2,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAiSdk, type AiSdkModelOptions } from '../../src/ai-sdk/index.js';
import {
  AbortError,
  assistantMessage,
  ConfigError,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderRequestError,
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../src/index.js';
import { finish, streamOf, textParts, usage } from './mock-parts.js';

const BASH = {
  name: 'Bash',
  description: 'Run a shell command',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
  },
};

function request(extra: Partial<ModelRequest> = {}): ModelRequest & { events: ModelStreamEvent[] } {
  const events: ModelStreamEvent[] = [];
  return {
    system: 'You are terse.',
    messages: [userMessage('hi')],
    tools: [BASH],
    onStream: (event) => events.push(event),
    events,
    ...extra,
  };
}

/** A client whose retries sleep into `sleeps` instead of waiting. */
function client(model: MockLanguageModelV3 | LanguageModelV2, options: AiSdkModelOptions = {}) {
  const sleeps: number[] = [];
  const adapted = fromAiSdk(model, {
    retry: { maxRetries: 2, sleep: async (ms) => void sleeps.push(ms), random: () => 0 },
    ...options,
  });
  return { model: adapted, sleeps };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => error,
  );
}

function apiCallError(statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  return new APICallError({
    message: 'provider message',
    url: 'https://example.invalid/v1/chat',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
    data: body,
  });
}

describe('fromAiSdk with the AI SDK mock models', () => {
  it('streams text deltas in order and resolves with the message, stop reason, usage and model id', async () => {
    const mock = new MockLanguageModelV3({
      doStream: streamOf([
        ...textParts(['Hel', 'lo', ', world']).slice(0, 2),
        { type: 'reasoning-start', id: 'r0' },
        { type: 'reasoning-delta', id: 'r0', delta: 'thinking aloud' },
        { type: 'reasoning-end', id: 'r0' },
        ...textParts(['Hel', 'lo', ', world'], usage(1012, 4, 1000, 0)).slice(2),
      ]),
    });
    const req = request();
    const response = await client(mock).model.complete(req);
    expect(response).toMatchObject({
      message: { role: 'assistant', text: 'Hello, world', toolCalls: [] },
      stopReason: 'end_turn',
      usage: { inputTokens: 12, outputTokens: 4, cacheReadInputTokens: 1000 },
      model: 'mock-model-2026',
    });
    expect(req.events).toEqual([
      { type: 'message_start', model: 'mock-model-2026' },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo' },
      { type: 'text_delta', text: ', world' },
      {
        type: 'message_stop',
        stopReason: 'end_turn',
        usage: { inputTokens: 12, outputTokens: 4, cacheReadInputTokens: 1000 },
      },
    ]);
  });

  it('assembles parallel tool calls whose inputs arrive split and interleaved, in the order they started', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: "I'll check." },
      { type: 'text-end', id: 't0' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'Bash' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"comm' },
      { type: 'tool-input-start', id: 'call_2', toolName: 'Read' },
      { type: 'tool-input-delta', id: 'call_2', delta: '{"file_path":"/tmp/a b.txt",' },
      { type: 'tool-input-delta', id: 'call_1', delta: 'and":"echo \\"hié\\""}' },
      { type: 'tool-input-delta', id: 'call_2', delta: '"limit":5}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-input-end', id: 'call_2' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'Bash', input: '{"command":"echo \\"hié\\""}' },
      {
        type: 'tool-call',
        toolCallId: 'call_2',
        toolName: 'Read',
        input: '{"file_path":"/tmp/a b.txt","limit":5}',
      },
      finish('tool-calls', usage(30, 40)),
    ];
    const req = request();
    const response = await client(new MockLanguageModelV3({ doStream: streamOf(parts) })).model.complete(req);
    expect(response.message).toMatchObject({
      text: "I'll check.",
      toolCalls: [
        { id: 'call_1', name: 'Bash', input: { command: 'echo "hié"' } },
        { id: 'call_2', name: 'Read', input: { file_path: '/tmp/a b.txt', limit: 5 } },
      ],
    });
    expect(response).toMatchObject({ stopReason: 'tool_use', usage: { inputTokens: 30, outputTokens: 40 } });
    expect(req.events.filter((event) => event.type === 'tool_call_start')).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'Bash' },
      { type: 'tool_call_start', index: 1, id: 'call_2', name: 'Read' },
    ]);
    const deltas = (index: number) =>
      req.events
        .filter((event) => event.type === 'tool_call_delta' && event.index === index)
        .map((event) => (event as { argumentsDelta: string }).argumentsDelta)
        .join('');
    expect(JSON.parse(deltas(0))).toEqual({ command: 'echo "hié"' });
    expect(JSON.parse(deltas(1))).toEqual({ file_path: '/tmp/a b.txt', limit: 5 });
  });

  it('takes whole tool calls from providers that stream no input deltas, and skips calls the provider ran itself', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      {
        type: 'tool-call',
        toolCallId: 'search_1',
        toolName: 'web_search',
        input: '{}',
        providerExecuted: true,
      },
      { type: 'tool-call', toolCallId: 'g_1', toolName: 'Bash', input: '{"command":"ls"}' },
      { type: 'tool-call', toolCallId: 'g_2', toolName: 'Bash', input: '' },
      finish('stop'),
    ];
    const req = request();
    const response = await client(new MockLanguageModelV3({ doStream: streamOf(parts) })).model.complete(req);
    expect(response.message.toolCalls).toEqual([
      { id: 'g_1', name: 'Bash', input: { command: 'ls' } },
      { id: 'g_2', name: 'Bash', input: {} },
    ]);
    expect(response.stopReason).toBe('tool_use');
    expect(req.events.filter((event) => event.type.startsWith('tool_call'))).toEqual([
      { type: 'tool_call_start', index: 0, id: 'g_1', name: 'Bash' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"command":"ls"}' },
      { type: 'tool_call_start', index: 1, id: 'g_2', name: 'Bash' },
    ]);
  });

  it('sends the system prompt, the conversation, the tools, tool choice, token limit and provider options', async () => {
    const mock = new MockLanguageModelV3({ doStream: streamOf(textParts(['ok'])) });
    const { model } = client(mock, {
      providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } },
      maxTokens: 512,
      headers: { 'x-trace': 'abc' },
    });
    await model.complete(
      request({
        messages: [
          userMessage('list the files'),
          systemMessage('SessionStart hook additional context: CTX-1'),
          assistantMessage("I'll look.", [
            { id: 'call_01', name: 'Bash', input: { command: 'ls' } },
            { id: 'call_02', name: 'Bash', input: '{"command":"cat missing"}' },
          ]),
          toolResultMessage('call_01', 'Bash', 'a.txt', false),
          toolResultMessage('call_02', 'Bash', 'Exit code 1', true),
          systemMessage('PostToolBatch hook additional context: CTX-2'),
        ],
        toolChoice: { type: 'any' },
      }),
    );
    const call = mock.doStreamCalls[0]!;
    expect(call.prompt).toEqual([
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'list the files\n\n<system-reminder>\nSessionStart hook additional context: CTX-1\n</system-reminder>',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll look." },
          { type: 'tool-call', toolCallId: 'call_01', toolName: 'Bash', input: { command: 'ls' } },
          { type: 'tool-call', toolCallId: 'call_02', toolName: 'Bash', input: { command: 'cat missing' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_01',
            toolName: 'Bash',
            output: { type: 'text', value: 'a.txt' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_02',
            toolName: 'Bash',
            output: { type: 'error-text', value: 'Exit code 1' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '<system-reminder>\nPostToolBatch hook additional context: CTX-2\n</system-reminder>',
          },
        ],
      },
    ]);
    expect(call.tools).toEqual([
      {
        type: 'function',
        name: 'Bash',
        description: 'Run a shell command',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ]);
    expect(call).toMatchObject({
      toolChoice: { type: 'required' },
      maxOutputTokens: 512,
      providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } },
      headers: { 'x-trace': 'abc' },
    });
    expect(call.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('sends hook context as system messages where they stand when asked to (system-role)', async () => {
    const mock = new MockLanguageModelV3({ doStream: streamOf(textParts(['ok'])) });
    await client(mock, { systemMessages: 'system-role' }).model.complete(
      request({ messages: [userMessage('go'), systemMessage('CTX')], tools: [] }),
    );
    expect(mock.doStreamCalls[0]!.prompt).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'system', content: 'CTX' },
    ]);
    expect(mock.doStreamCalls[0]!.tools).toBeUndefined();
  });

  it("sends a tool call's provider metadata back with the call on the next request (Gemini's thought signatures)", async () => {
    const signature = { google: { thoughtSignature: 'sig-123' } };
    const mock = new MockLanguageModelV3({
      doStream: [
        streamOf([
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'Bash',
            input: '{"command":"ls"}',
            providerMetadata: signature,
          },
          finish('tool-calls'),
        ]),
        streamOf(textParts(['done'])),
      ],
    });
    const { model } = client(mock);
    const first = await model.complete(request());
    await model.complete(
      request({
        messages: [userMessage('hi'), first.message, toolResultMessage('c1', 'Bash', 'a.txt', false)],
      }),
    );
    expect(mock.doStreamCalls[1]!.prompt[2]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'Bash',
          input: { command: 'ls' },
          providerOptions: signature,
        },
      ],
    });
  });

  it('maps length, content-filter and other finish reasons', async () => {
    const answer = async (part: LanguageModelV3StreamPart) =>
      (await client(new MockLanguageModelV3({ doStream: streamOf([part]) })).model.complete(request()))
        .stopReason;
    expect(await answer(finish('length'))).toBe('max_tokens');
    expect(await answer(finish('content-filter'))).toBe('refusal');
    expect(await answer(finish('other', usage(1, 1), 'eos'))).toBe('eos');
    expect(await answer(finish('other', usage(1, 1), null))).toBe('end_turn');
  });

  it('retries a 429 after the retry-after the provider passed on, then succeeds', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doStream: async () => {
        if (calls++ === 0)
          throw apiCallError(
            429,
            { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
            { 'retry-after': '2' },
          );
        return streamOf(textParts(['ok']));
      },
    });
    const { model, sleeps } = client(mock);
    expect((await model.complete(request())).message.text).toBe('ok');
    expect(sleeps).toEqual([2000]);
  });

  it('does not retry a 400: one error naming the provider, the status and the server message', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'mock.chat',
      doStream: async () => {
        throw apiCallError(400, { error: { message: 'tools[0] is invalid', type: 'invalid_request_error' } });
      },
    });
    const { model, sleeps } = client(mock);
    const error = await rejection(model.complete(request()));
    expect(error).toBeInstanceOf(ProviderRequestError);
    expect(error).toMatchObject({
      provider: 'mock.chat',
      status: 400,
      retryable: false,
      kind: 'http',
      errorType: 'invalid_request_error',
      message: 'API Error: 400 tools[0] is invalid',
    });
    expect((error as ProviderRequestError).describe()).toBe(
      'mock.chat: HTTP 400 invalid_request_error: tools[0] is invalid (not retried)',
    );
    expect(mock.doStreamCalls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries overloaded answers (529) with backoff and gives up after maxRetries', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => {
        throw apiCallError(529, {
          type: 'error',
          error: { type: 'overloaded_error', message: 'Overloaded' },
        });
      },
    });
    const { model, sleeps } = client(mock);
    const error = await rejection(model.complete(request()));
    expect(error).toMatchObject({ status: 529, retryable: true, errorType: 'overloaded_error' });
    expect(sleeps).toEqual([500, 1000]);
    expect(mock.doStreamCalls).toHaveLength(3);
  });

  it('retries an overloaded error part at the start of a stream, but not one after text was streamed', async () => {
    const overloaded: LanguageModelV3StreamPart = {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    };
    const early = new MockLanguageModelV3({
      doStream: [streamOf([{ type: 'stream-start', warnings: [] }, overloaded]), streamOf(textParts(['ok']))],
    });
    const { model, sleeps } = client(early);
    expect((await model.complete(request())).message.text).toBe('ok');
    expect(sleeps).toHaveLength(1);

    const late = new MockLanguageModelV3({
      doStream: [streamOf([...textParts(['Hel']).slice(0, 4), overloaded]), streamOf(textParts(['ok']))],
    });
    const req = request();
    const error = await rejection(client(late).model.complete(req));
    expect(error).toMatchObject({ retryable: false, errorType: 'overloaded_error' });
    expect((error as Error).message).toMatch(/cut off after output had started/);
    expect(req.events).toContainEqual({ type: 'text_delta', text: 'Hel' });
    expect(late.doStreamCalls).toHaveLength(1);
  });

  it('treats a stream that closes without its finish part as a dropped connection, retried before any output', async () => {
    const mock = new MockLanguageModelV3({
      doStream: [streamOf([{ type: 'stream-start', warnings: [] }]), streamOf(textParts(['ok']))],
    });
    const { model, sleeps } = client(mock);
    expect((await model.complete(request())).message.text).toBe('ok');
    expect(sleeps).toHaveLength(1);
    const cut = new MockLanguageModelV3({ doStream: streamOf([{ type: 'stream-start', warnings: [] }]) });
    const error = await rejection(client(cut, { retry: { maxRetries: 0 } }).model.complete(request()));
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
    expect((error as Error).message).toBe(
      'API Error: Connection error: the stream ended before its finish part',
    );
  });

  it('aborts a stream in flight when the signal fires, and passes the abort to the model', async () => {
    let seen: LanguageModelV3CallOptions | undefined;
    const mock = new MockLanguageModelV3({
      doStream: async (options) => {
        seen = options;
        // A stream that sends one delta and then nothing: only the abort ends it.
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-start', id: 't0' });
              controller.enqueue({ type: 'text-delta', id: 't0', delta: 'partial' });
            },
          }),
        };
      },
    });
    const controller = new AbortController();
    const { model, sleeps } = client(mock);
    const req = request({
      signal: controller.signal,
      onStream: (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    });
    const error = await rejection(model.complete(req));
    expect(error).toBeInstanceOf(AbortError);
    expect(seen?.abortSignal?.aborted).toBe(true);
    expect(sleeps).toEqual([]);
    expect(mock.doStreamCalls).toHaveLength(1);
  });

  it('aborts while the model has not answered yet, even when it ignores the signal', async () => {
    const mock = new MockLanguageModelV3({ doStream: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const pending = client(mock).model.complete(request({ signal: controller.signal }));
    controller.abort();
    expect(await rejection(pending)).toBeInstanceOf(AbortError);
  });

  it('reads v2 models (ai 5): flat usage with cached input tokens and string finish reasons', async () => {
    const parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'from v2' },
      { type: 'text-end', id: '0' },
      {
        type: 'finish',
        finishReason: 'length',
        usage: { inputTokens: 120, outputTokens: 7, totalTokens: 127, cachedInputTokens: 100 },
      },
    ];
    const calls: unknown[] = [];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy.chat',
      modelId: 'legacy-1',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('not used')),
      doStream: async (options) => {
        calls.push(options);
        return streamOf(parts as LanguageModelV3StreamPart[]) as unknown as Awaited<
          ReturnType<LanguageModelV2['doStream']>
        >;
      },
    };
    const { model } = client(v2);
    expect(model.name).toBe('legacy.chat');
    const response = await model.complete(request());
    expect(response).toMatchObject({
      message: { text: 'from v2' },
      stopReason: 'max_tokens',
      usage: { inputTokens: 20, outputTokens: 7, cacheReadInputTokens: 100 },
      model: 'legacy-1',
    });
    expect(calls).toHaveLength(1);
  });

  it('refuses what is not a language model of a supported version, with one line', () => {
    expect(() => fromAiSdk({} as never)).toThrow(ConfigError);
    const v4 = { ...new MockLanguageModelV3(), specificationVersion: 'v4', doStream: () => undefined };
    expect(() => fromAiSdk(v4 as never)).toThrow(
      'hookloop/ai-sdk: the model\'s specificationVersion is "v4"; supported: v2 (ai 5 providers) and v3 (ai 6 providers)',
    );
  });

  it('asks the model modelFor gives for a request naming another model, and refuses without it', async () => {
    const mock = new MockLanguageModelV3({ modelId: 'small', doStream: streamOf(textParts(['small'])) });
    const other = new MockLanguageModelV3({ modelId: 'large', doStream: streamOf(textParts(['large'])) });
    await expect(client(mock).model.complete(request({ model: 'large' }))).rejects.toThrow(
      'hookloop/ai-sdk: the request asks for model "large" but this client wraps "small"; pass modelFor to fromAiSdk to allow other models',
    );
    const { model } = client(mock, { modelFor: (id) => (id === 'large' ? other : mock) });
    expect((await model.complete(request({ model: 'large' }))).message.text).toBe('large');
    expect(other.doStreamCalls).toHaveLength(1);
  });
});
