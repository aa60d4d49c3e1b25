import { afterEach, describe, expect, it } from 'vitest';
import { userMessage } from '../../src/index.js';
import { mapFinishReason } from '../../src/model/openai/map-finish-reason.js';
import { OpenAICompatibleModel, openAISystemMessages } from '../../src/model/openai/openai-model.js';
import { BASH, describeProviderConformance } from './provider-conformance.js';
import { fixtureReply, startReplayServer, type ReplayServer } from './support/replay-server.js';

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;
const CTX1 = 'SessionStart hook additional context: CTX-1';
const CTX2 = 'PostToolBatch hook additional context: CTX-2';
const ASSISTANT = {
  role: 'assistant',
  content: "I'll look.",
  tool_calls: [
    { id: 'call_01', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
    { id: 'call_02', type: 'function', function: { name: 'Bash', arguments: '{"command":"cat missing"}' } },
  ],
};
const RESULTS = [
  { role: 'tool', tool_call_id: 'call_01', content: 'a.txt\nb.txt' },
  { role: 'tool', tool_call_id: 'call_02', content: 'Exit code 1\ncat: missing: No such file' },
];

describeProviderConformance({
  provider: 'openai',
  path: '/v1/chat/completions',
  create: ({ baseURL, retry, timeoutMs, systemMessages }) =>
    new OpenAICompatibleModel({
      model: 'gpt-5',
      apiKey: 'sk-test',
      baseURL: `${baseURL}/v1`,
      retry,
      timeoutMs,
      systemMessages,
    }),
  cacheUsage: { inputTokens: 5, outputTokens: 3, cacheReadInputTokens: 1000 },
  checkRequest(body, mode) {
    expect(body).toMatchObject({ model: 'gpt-5', stream: true, stream_options: { include_usage: true } });
    expect(body['tools']).toEqual([
      {
        type: 'function',
        function: {
          name: 'Bash',
          description: BASH.description,
          parameters: {
            type: 'object',
            properties: { command: { type: 'string' } },
            required: ['command'],
            additionalProperties: false,
          },
        },
      },
    ]);
    if (mode === 'system-role') {
      expect(body['messages']).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'list the files' },
        { role: 'system', content: CTX1 },
        ASSISTANT,
        ...RESULTS,
        { role: 'system', content: CTX2 },
      ]);
    } else {
      expect(body['messages']).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: `list the files\n\n${reminder(CTX1)}` },
        ASSISTANT,
        ...RESULTS,
        { role: 'user', content: reminder(CTX2) },
      ]);
    }
  },
});

describe('OpenAI-compatible dialects', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function answer(fixture: string) {
    server = await startReplayServer([fixtureReply('openai', fixture, { chunkBytes: 4 })]);
    return new OpenAICompatibleModel({ model: 'm', baseURL: `${server.url}/v1` }).complete({
      system: '',
      messages: [userMessage('go')],
      tools: [BASH],
    });
  }

  it('pieces without index, with the id only on the first piece of each call', async () => {
    const response = await answer('dialect-no-index.sse');
    expect(response.message).toMatchObject({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'Bash', input: { command: 'ls' } },
        { id: 'call_b', name: 'Read', input: { file_path: '/x' } },
      ],
    });
    expect(response.stopReason).toBe('tool_use');
  });

  it('Ollama: arguments as objects, every call numbered 0, finish_reason stop with tool calls, usage on the last choice chunk', async () => {
    const response = await answer('dialect-ollama.sse');
    expect(response.message.toolCalls).toEqual([
      { id: 'call_x1', name: 'Bash', input: { command: 'ls -la' } },
      { id: 'call_x2', name: 'Read', input: { file_path: '/etc/hosts' } },
    ]);
    expect(response).toMatchObject({
      stopReason: 'tool_use',
      usage: { inputTokens: 50, outputTokens: 20 },
      model: 'qwen3:8b',
    });
  });

  it('DeepSeek cache-hit counts; a call without an id gets a stable one', async () => {
    const response = await answer('dialect-deepseek.sse');
    expect(response.usage).toEqual({ inputTokens: 100, outputTokens: 7, cacheReadInputTokens: 800 });
    expect(response.message.toolCalls).toEqual([{ id: 'call_0', name: 'Bash', input: { command: 'pwd' } }]);
  });

  it('sends no Authorization key of the user when none is configured (local servers)', async () => {
    await answer('text.sse');
    expect(server!.requests[0]!.headers['authorization']).toBe('Bearer no-key');
  });

  it('auto sends mid-conversation system messages only to OpenAI itself', () => {
    expect(openAISystemMessages('auto', undefined)).toBe('system-role');
    expect(openAISystemMessages(undefined, 'https://api.openai.com/v1')).toBe('system-role');
    expect(openAISystemMessages('auto', 'http://localhost:11434/v1')).toBe('user-text');
    expect(openAISystemMessages('system-role', 'http://localhost:8000/v1')).toBe('system-role');
  });

  it('maps finish reasons', () => {
    expect(mapFinishReason('stop', false)).toBe('end_turn');
    expect(mapFinishReason('stop', true)).toBe('tool_use');
    expect(mapFinishReason('length', false)).toBe('max_tokens');
    expect(mapFinishReason('content_filter', false)).toBe('refusal');
    expect(mapFinishReason(undefined, false)).toBe('end_turn');
    expect(mapFinishReason('eos', false)).toBe('eos');
  });
});
