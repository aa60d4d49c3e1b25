import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { expect } from 'vitest';
import { fromAiSdk } from '../../src/ai-sdk/index.js';
import { BASH, describeProviderConformance } from './provider-conformance.js';

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
      'the provider package reads the response body itself; the adapter sees its stream parts only',
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
