import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantMessage,
  ProviderRequestError,
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../src/index.js';
import { AnthropicModel, anthropicSystemMessages } from '../../src/model/anthropic/anthropic-model.js';
import { toRequestMessages } from '../../src/model/anthropic/convert-messages.js';
import { mapStopReason } from '../../src/model/anthropic/map-stop-reason.js';
import { BASH, describeProviderConformance } from './provider-conformance.js';
import { fixtureReply, startReplayServer, type ReplayServer } from './support/replay-server.js';

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;
const CTX1 = 'SessionStart hook additional context: CTX-1';
const CTX2 = 'PostToolBatch hook additional context: CTX-2';
const ASSISTANT = {
  role: 'assistant',
  content: [
    { type: 'text', text: "I'll look." },
    { type: 'tool_use', id: 'call_01', name: 'Bash', input: { command: 'ls' } },
    { type: 'tool_use', id: 'call_02', name: 'Bash', input: { command: 'cat missing' } },
  ],
};
const RESULTS = [
  { type: 'tool_result', tool_use_id: 'call_01', content: 'a.txt\nb.txt' },
  {
    type: 'tool_result',
    tool_use_id: 'call_02',
    content: 'Exit code 1\ncat: missing: No such file',
    is_error: true,
  },
];
const CACHE = { cache_control: { type: 'ephemeral' } };

describeProviderConformance({
  provider: 'anthropic',
  path: '/v1/messages',
  create: ({ baseURL, retry, timeoutMs, systemMessages }) =>
    new AnthropicModel({
      model: 'claude-sonnet-5-5',
      apiKey: 'sk-test',
      baseURL,
      retry,
      timeoutMs,
      systemMessages,
    }),
  cacheUsage: { inputTokens: 5, outputTokens: 3, cacheReadInputTokens: 1000, cacheCreationInputTokens: 200 },
  checkRequest(body, mode) {
    expect(body).toMatchObject({
      model: 'claude-sonnet-5-5',
      stream: true,
      max_tokens: 32000,
      system: [{ type: 'text', text: 'You are terse.', ...CACHE }],
    });
    expect(body['tools']).toEqual([
      {
        name: 'Bash',
        description: BASH.description,
        input_schema: {
          type: 'object',
          properties: { command: { type: 'string' } },
          required: ['command'],
          additionalProperties: false,
        },
        ...CACHE,
      },
    ]);
    if (mode === 'system-role') {
      expect(body['messages']).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'list the files' }] },
        { role: 'system', content: [{ type: 'text', text: CTX1 }] },
        ASSISTANT,
        { role: 'user', content: RESULTS },
        { role: 'system', content: [{ type: 'text', text: CTX2, ...CACHE }] },
      ]);
    } else {
      expect(body['messages']).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'list the files' },
            { type: 'text', text: reminder(CTX1) },
          ],
        },
        ASSISTANT,
        { role: 'user', content: [...RESULTS, { type: 'text', text: reminder(CTX2), ...CACHE }] },
      ]);
    }
  },
});

describe('Anthropic provider specifics', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends thinking blocks back, signature intact, with the assistant turn that made the tool call', async () => {
    server = await startReplayServer([
      fixtureReply('anthropic', 'thinking-tool.sse'),
      fixtureReply('anthropic', 'text.sse'),
    ]);
    const model = new AnthropicModel({ model: 'claude-opus-5-5', apiKey: 'k', baseURL: server.url });
    const first = await model.complete({ system: '', messages: [userMessage('ls please')], tools: [BASH] });
    expect(first.message.toolCalls).toEqual([{ id: 'call_01', name: 'Bash', input: { command: 'ls' } }]);
    expect(first.message.text).toBe('');
    await model.complete({
      system: '',
      messages: [
        userMessage('ls please'),
        first.message,
        toolResultMessage('call_01', 'Bash', 'a.txt', false),
      ],
      tools: [BASH],
    });
    const sent = server.requests[1]!.body['messages'] as { role: string; content: unknown[] }[];
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants ls.', signature: 'EqQBCkYIBxgCKkBsig==' },
        { type: 'tool_use', id: 'call_01', name: 'Bash', input: { command: 'ls' } },
      ],
    });
    expect(server.requests[0]!.body).not.toHaveProperty('system');
  });

  it('reports an event that does not match the protocol as a malformed stream', async () => {
    server = await startReplayServer([fixtureReply('anthropic', 'schema-malformed.sse')]);
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: 'k', baseURL: server.url });
    const error = await model
      .complete({ system: '', messages: [userMessage('x')], tools: [] })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ProviderRequestError);
    expect((error as Error).message).toMatch(
      /^API Error: malformed stream event \(content_block_delta\): index:/,
    );
  });

  it('sends the API key or the gateway token as a bearer credential, as SDK 1.x does', async () => {
    server = await startReplayServer([
      fixtureReply('anthropic', 'text.sse'),
      fixtureReply('anthropic', 'text.sse'),
    ]);
    await new AnthropicModel({ model: 'm', apiKey: 'sk-key', baseURL: server.url }).complete({
      system: '',
      messages: [userMessage('x')],
      tools: [],
    });
    await new AnthropicModel({ model: 'm', authToken: 'tok', baseURL: server.url }).complete({
      system: '',
      messages: [userMessage('x')],
      tools: [],
    });
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-key');
    expect(server.requests[1]!.headers['authorization']).toBe('Bearer tok');
  });

  it('leaves out prompt-cache breakpoints when caching is off', async () => {
    server = await startReplayServer([fixtureReply('anthropic', 'text.sse')]);
    await new AnthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url, promptCaching: false }).complete(
      { system: 'S', messages: [userMessage('x')], tools: [BASH] },
    );
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('cache_control');
  });
});

describe('Anthropic message conversion', () => {
  const convert = (
    messages: Parameters<typeof toRequestMessages>[0],
    systemMessages: 'system-role' | 'user-text',
  ) => toRequestMessages(messages, { systemMessages, cache: false });

  it('moves a system message that a user message follows to just before the next assistant turn, merged with the next one (the API placement rule)', () => {
    const wire = convert(
      [
        userMessage('p'),
        assistantMessage('a'),
        userMessage('Stop hook feedback:\nmore'),
        systemMessage('S1'),
        userMessage('ctx'),
        systemMessage('S2'),
      ],
      'system-role',
    );
    expect(wire.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'system']);
    expect(wire[2]!.content).toEqual([
      { type: 'text', text: 'Stop hook feedback:\nmore' },
      { type: 'text', text: 'ctx' },
    ]);
    expect(wire[3]!.content).toEqual([{ type: 'text', text: 'S1\n\nS2' }]);
  });

  it('folds a system message that follows an assistant turn into user text, since no user message precedes it', () => {
    const wire = convert([userMessage('p'), assistantMessage('a'), systemMessage('S')], 'system-role');
    expect(wire.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: reminder('S') }] });
  });

  it('leaves out empty assistant turns and empty text blocks, which the API rejects', () => {
    const wire = convert([userMessage('p'), assistantMessage(''), userMessage('again')], 'user-text');
    expect(wire).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'p' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });

  it('sends a call whose raw arguments were not JSON with an empty input object', () => {
    const wire = convert(
      [
        userMessage('p'),
        assistantMessage('', [{ id: 'c', name: 'Bash', input: '{"command": "ls"' }]),
        toolResultMessage('c', 'Bash', 'bad json', true),
      ],
      'user-text',
    );
    expect(wire[1]!.content).toEqual([{ type: 'tool_use', id: 'c', name: 'Bash', input: {} }]);
  });

  it('auto sends role system only to models documented to accept it', () => {
    expect(anthropicSystemMessages('auto', 'claude-opus-4-8')).toBe('system-role');
    expect(anthropicSystemMessages(undefined, 'claude-sonnet-5-5')).toBe('system-role');
    expect(anthropicSystemMessages('auto', 'claude-sonnet-4-5-20250929')).toBe('user-text');
    expect(anthropicSystemMessages('auto', 'claude-opus-4-7')).toBe('user-text');
    expect(anthropicSystemMessages('auto', 'glm-4.6')).toBe('user-text');
    expect(anthropicSystemMessages('system-role', 'claude-3-haiku')).toBe('system-role');
  });

  it('maps stop reasons, deriving a missing one from the tool calls', () => {
    expect(mapStopReason('end_turn', false)).toBe('end_turn');
    expect(mapStopReason('refusal', false)).toBe('refusal');
    expect(mapStopReason(null, true)).toBe('tool_use');
    expect(mapStopReason('some_future_reason', false)).toBe('some_future_reason');
  });
});
