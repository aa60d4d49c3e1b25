import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { fromAiSdk } from '../../src/ai-sdk/index.js';
import { userMessage } from '../../src/index.js';
import { BASH, describeProviderConformance } from './provider-conformance.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';

// hookloop/ai-sdk through a real AI SDK provider package, @ai-sdk/openai-compatible, against the
// replay server serving the OpenAI chat-completions fixtures.

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
  provider: 'ai-sdk',
  fixtures: 'openai',
  path: '/v1/chat/completions',
  create: ({ baseURL, retry, timeoutMs, systemMessages }) =>
    fromAiSdk(
      createOpenAICompatible({
        name: 'mock-openai',
        baseURL: `${baseURL}/v1`,
        apiKey: 'sk-test',
        includeUsage: true,
      }).chatModel('gpt-5'),
      { name: 'ai-sdk', retry, timeoutMs, systemMessages },
    ),
  cacheUsage: { inputTokens: 5, outputTokens: 3, cacheReadInputTokens: 1000 },
  notApplicable: {
    'does not retry a 200 answer that is not an event stream, and says what the server sent':
      'the provider package reads the body itself: the adapter names the content type but cannot quote the body (tested below)',
  },
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

describe('hookloop/ai-sdk through @ai-sdk/openai-compatible', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('does not retry a 200 answer that is a JSON or HTML document, and names its content type', async () => {
    server = await startReplayServer([
      { kind: 'json', status: 200, body: { id: 'not-a-stream', choices: [] } },
      { kind: 'json', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy' },
    ]);
    const model = fromAiSdk(
      createOpenAICompatible({ name: 'mock-openai', baseURL: `${server.url}/v1` }).chatModel('gpt-5'),
      { name: 'ai-sdk', retry: { maxRetries: 2, sleep: async () => undefined } },
    );
    const ask = () => model.complete({ system: '', messages: [userMessage('hi')], tools: [] });
    await expect(ask()).rejects.toMatchObject({
      kind: 'stream',
      retryable: false,
      message:
        'API Error: the server sent a non-stream body to a streaming request (content-type application/json)',
    });
    await expect(ask()).rejects.toMatchObject({
      message: 'API Error: the server sent a non-stream body to a streaming request (content-type text/html)',
    });
    expect(server.requests).toHaveLength(2);
  });
});
