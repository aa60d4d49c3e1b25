/**
 * The provider conformance suite: one set of behaviours every real provider adapter must have,
 * run by each adapter's test file against a local replay server (127.0.0.1) serving that
 * provider's recorded wire fixtures under the same names (test/fixtures/providers/<provider>/).
 * Retry delays are injected: nothing sleeps for real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  assistantMessage,
  type Message,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderRequestError,
  type RetryOptions,
  systemMessage,
  type SystemMessageSetting,
  toolResultMessage,
  type ToolSpec,
  userMessage,
} from '../../src/index.js';
import { fixtureReply, startReplayServer, type Reply, type ReplayServer } from './support/replay-server.js';

/** What a provider's test file gives the suite. */
export interface ProviderUnderTest {
  /** Provider name (`anthropic`, `openai`), and the fixture folder unless `fixtures` names another. */
  readonly provider: string;
  /** The fixture folder, when the adapter speaks another provider's wire format (an AI SDK provider package). */
  readonly fixtures?: string;
  /**
   * Cases of the suite that do not apply to this adapter, by their name, each with the reason. They
   * are reported as skipped with that reason; naming a case the suite does not have fails.
   */
  readonly notApplicable?: Readonly<Record<string, string>>;
  /** A client for `baseURL` (the replay server) with these options. */
  create(options: {
    baseURL: string;
    retry: RetryOptions;
    timeoutMs?: number;
    systemMessages?: SystemMessageSetting;
  }): ModelClient;
  /** The request path the adapter posts to. */
  readonly path: string;
  /** The usage `cache-usage` must report (providers count cache writes differently). */
  readonly cacheUsage: {
    inputTokens: number;
    outputTokens: number;
    cacheReadInputTokens?: number;
    cacheCreationInputTokens?: number;
  };
  /** Checks the wire body of CONVERSATION sent with system messages in `mode`. */
  checkRequest(body: Record<string, unknown>, mode: 'system-role' | 'user-text'): void;
}

/** The tool every request offers. */
export const BASH: ToolSpec = {
  name: 'Bash',
  description: 'Run a shell command',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  },
};

/**
 * A conversation with everything a provider must convert: the prompt, hook context after it, an
 * assistant turn with text and two parallel calls, their results (one an error), and hook
 * context after the results.
 */
export const CONVERSATION: readonly Message[] = [
  userMessage('list the files'),
  systemMessage('SessionStart hook additional context: CTX-1'),
  assistantMessage("I'll look.", [
    { id: 'call_01', name: 'Bash', input: { command: 'ls' } },
    { id: 'call_02', name: 'Bash', input: { command: 'cat missing' } },
  ]),
  toolResultMessage('call_01', 'Bash', 'a.txt\nb.txt', false),
  toolResultMessage('call_02', 'Bash', 'Exit code 1\ncat: missing: No such file', true),
  systemMessage('PostToolBatch hook additional context: CTX-2'),
];

/** Runs the shared suite for one provider. */
export function describeProviderConformance(subject: ProviderUnderTest): void {
  const folder = subject.fixtures ?? subject.provider;
  const notApplicable = new Map(Object.entries(subject.notApplicable ?? {}));
  const names = new Set<string>();
  /** One case of the suite: run, or reported as skipped with the reason it does not apply. */
  const conform = (name: string, test: () => Promise<void>) => {
    names.add(name);
    const reason = notApplicable.get(name);
    if (reason === undefined) it(name, test);
    else it.skip(`${name} (not applicable: ${reason})`, test);
  };
  describe(`provider conformance: ${subject.provider}`, () => {
    let server: ReplayServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    /** A client against a replay server serving `replies`; `sleeps` collects the retry delays instead of waiting. */
    async function setup(
      replies: readonly (Reply | string)[],
      options: { maxRetries?: number; timeoutMs?: number; systemMessages?: SystemMessageSetting } = {},
    ) {
      server = await startReplayServer(
        replies.map((reply) => (typeof reply === 'string' ? fixtureReply(folder, reply) : reply)),
      );
      const sleeps: number[] = [];
      const retries: unknown[] = [];
      const retry: RetryOptions = {
        maxRetries: options.maxRetries ?? 2,
        sleep: async (ms) => void sleeps.push(ms),
        random: () => 0,
        onRetry: ({ error }) => void retries.push(error),
      };
      const model = subject.create({
        baseURL: server.url,
        retry,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.systemMessages ? { systemMessages: options.systemMessages } : {}),
      });
      return { model, sleeps, retries, server };
    }

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

    async function failure(promise: Promise<unknown>): Promise<ProviderRequestError> {
      const error = await promise.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ProviderRequestError);
      return error as ProviderRequestError;
    }

    conform(
      'streams text deltas in order and resolves with the whole message, stop reason and usage',
      async () => {
        const { model } = await setup([{ ...fixtureReply(folder, 'text.sse'), chunkBytes: 5 } as Reply]);
        const req = request();
        const response = await model.complete(req);
        expect(response.message).toMatchObject({ role: 'assistant', text: 'Hello, world! ✓', toolCalls: [] });
        expect(response.stopReason).toBe('end_turn');
        expect(response.usage).toEqual({ inputTokens: 12, outputTokens: 4 });
        const deltas = req.events
          .filter((event) => event.type === 'text_delta')
          .map((event) => (event as { text: string }).text);
        expect(deltas.join('')).toBe('Hello, world! ✓');
        expect(deltas.length).toBeGreaterThan(1);
        expect(req.events[0]?.type).toBe('message_start');
        expect(req.events.at(-1)).toMatchObject({
          type: 'message_stop',
          stopReason: 'end_turn',
          usage: { inputTokens: 12, outputTokens: 4 },
        });
        expect(server!.requests[0]!.url).toBe(subject.path);
      },
    );

    conform(
      'assembles parallel tool calls whose arguments arrive split across chunks, in order, with their ids',
      async () => {
        const { model } = await setup([
          { ...fixtureReply(folder, 'parallel-tools.sse'), chunkBytes: 3 } as Reply,
        ]);
        const req = request();
        const response = await model.complete(req);
        expect(response.message.text).toBe("I'll check.");
        expect(response.message.toolCalls).toEqual([
          { id: 'call_01', name: 'Bash', input: { command: 'echo "hié" > out.txt' } },
          { id: 'call_02', name: 'Read', input: { file_path: '/tmp/a b.txt', limit: 5 } },
        ]);
        expect(response.stopReason).toBe('tool_use');
        expect(response.usage).toEqual({ inputTokens: 30, outputTokens: 40 });
        const starts = req.events.filter((event) => event.type === 'tool_call_start');
        expect(starts).toEqual([
          { type: 'tool_call_start', index: 0, id: 'call_01', name: 'Bash' },
          { type: 'tool_call_start', index: 1, id: 'call_02', name: 'Read' },
        ]);
        const args = req.events
          .filter((event) => event.type === 'tool_call_delta' && event.index === 0)
          .map((event) => (event as { argumentsDelta: string }).argumentsDelta);
        expect(JSON.parse(args.join(''))).toEqual({ command: 'echo "hié" > out.txt' });
      },
    );

    conform('reports cache token counts and max_tokens stops', async () => {
      const { model } = await setup(['cache-usage.sse', 'max-tokens.sse']);
      expect((await model.complete(request())).usage).toEqual(subject.cacheUsage);
      const cut = await model.complete(request());
      expect(cut.stopReason).toBe('max_tokens');
      expect(cut.message.text).toBe('cut sho');
    });

    for (const mode of ['system-role', 'user-text'] as const) {
      conform(
        `sends the system prompt, the tools, tool calls with paired results and hook context (${mode})`,
        async () => {
          const { model } = await setup(['text.sse'], { systemMessages: mode });
          await model.complete(request({ messages: CONVERSATION }));
          subject.checkRequest(server!.requests[0]!.body, mode);
        },
      );
    }

    for (const [fixture, status] of [
      ['error-400.json', 400],
      ['error-401.json', 401],
      ['error-404.json', 404],
    ] as const) {
      conform(
        `does not retry HTTP ${status}: the error names the provider, the status and the server's message`,
        async () => {
          const { model, sleeps } = await setup([fixture, 'text.sse']);
          const error = await failure(model.complete(request()));
          expect(error).toMatchObject({ provider: subject.provider, status, retryable: false, kind: 'http' });
          expect(error.message).toMatch(new RegExp(`^API Error: ${status} `));
          expect(error.serverMessage).toBeTruthy();
          expect(error.message).toContain(error.serverMessage);
          expect(error.describe()).toMatch(
            new RegExp(`^${subject.provider}: HTTP ${status} .*\\(not retried\\)$`),
          );
          expect(error.stack ?? '').not.toContain(error.describe());
          expect(server!.requests).toHaveLength(1);
          expect(sleeps).toEqual([]);
        },
      );
    }

    conform('retries 429 after the retry-after the server asked for, then succeeds', async () => {
      const { model, sleeps } = await setup(['error-429.json', 'text.sse']);
      const response = await model.complete(request());
      expect(response.message.text).toBe('Hello, world! ✓');
      expect(sleeps).toEqual([2000]);
      expect(server!.requests).toHaveLength(2);
    });

    conform(
      'retries overloaded 5xx answers with exponential backoff and gives up after maxRetries',
      async () => {
        const { model, sleeps } = await setup(
          ['error-overloaded.json', 'error-overloaded.json', 'error-overloaded.json', 'text.sse'],
          { maxRetries: 2 },
        );
        const error = await failure(model.complete(request()));
        expect(error.retryable).toBe(true);
        expect(error.status).toBeGreaterThanOrEqual(500);
        expect(sleeps).toEqual([500, 1000]);
        expect(server!.requests).toHaveLength(3);
      },
    );

    conform('retries an error event at the start of a stream (overloaded)', async () => {
      const { model, sleeps } = await setup(['error-event.sse', 'text.sse']);
      expect((await model.complete(request())).message.text).toBe('Hello, world! ✓');
      expect(sleeps).toHaveLength(1);
    });

    conform('fails on a malformed stream event with a clear error, without retrying', async () => {
      const { model } = await setup(['malformed.sse', 'text.sse']);
      const error = await failure(model.complete(request()));
      expect(error).toMatchObject({ kind: 'stream', retryable: false });
      expect(error.message).toMatch(/^API Error: malformed stream/);
      expect(server!.requests).toHaveLength(1);
    });

    conform(
      'does not retry a 200 answer that is not an event stream, and says what the server sent',
      async () => {
        const { model } = await setup(
          [
            { kind: 'json', status: 200, body: { id: 'not-a-stream', choices: [] } },
            { kind: 'json', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy' },
            'text.sse',
          ],
          { maxRetries: 2 },
        );
        const error = await failure(model.complete(request()));
        expect(error).toMatchObject({ kind: 'stream', retryable: false, provider: subject.provider });
        expect(error.message).toBe(
          'API Error: the server sent a non-stream body to a streaming request (content-type application/json): {"id":"not-a-stream","choices":[]}',
        );
        expect(error.describe()).toMatch(/\(not retried\)$/);
        expect(server!.requests).toHaveLength(1);
        const html = await failure(model.complete(request()));
        expect(html.message).toMatch(
          /^API Error: the server sent a non-stream body to a streaming request \(content-type text\/html\): "<html>proxy"$/,
        );
        expect((await model.complete(request())).message.text).toBe('Hello, world! ✓');
      },
    );

    conform('retries a stream that ends before any content', async () => {
      const { model } = await setup(['truncated-before-content.sse', 'text.sse']);
      expect((await model.complete(request())).message.text).toBe('Hello, world! ✓');
      expect(server!.requests).toHaveLength(2);
    });

    conform(
      'does not retry a stream cut off after text was streamed (the text would be repeated)',
      async () => {
        const { model } = await setup(['truncated-after-content.sse', 'text.sse']);
        const req = request();
        const error = await failure(model.complete(req));
        expect(error).toMatchObject({ kind: 'connection', retryable: false });
        expect(error.message).toMatch(/cut off after output had started/);
        expect(req.events.some((event) => event.type === 'text_delta')).toBe(true);
        expect(server!.requests).toHaveLength(1);
      },
    );

    conform('treats a connection dropped mid-stream as a connection error', async () => {
      const { model } = await setup([{ ...fixtureReply(folder, 'text.sse'), dropAfterEvents: 3 } as Reply], {
        maxRetries: 0,
      });
      const error = await failure(model.complete(request()));
      expect(error.kind).toBe('connection');
      expect(error.message).toMatch(/^API Error: Connection error/);
    });

    conform('retries a connection dropped before the response', async () => {
      const { model, sleeps } = await setup([{ kind: 'drop' }, 'text.sse']);
      expect((await model.complete(request())).message.text).toBe('Hello, world! ✓');
      expect(sleeps).toHaveLength(1);
    });

    conform('reports a refused connection after its retries', async () => {
      const { model, sleeps, server: live } = await setup([]);
      await live.close();
      const error = await failure(model.complete(request()));
      expect(error).toMatchObject({ kind: 'connection', retryable: true, provider: subject.provider });
      expect(error.message).toMatch(/ECONNREFUSED/);
      expect(sleeps).toHaveLength(2);
    });

    conform('times out a server that does not answer', async () => {
      const { model } = await setup([{ kind: 'hang' }], { timeoutMs: 150, maxRetries: 0 });
      const error = await failure(model.complete(request()));
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
      expect(error.message).toMatch(/^API Error: Request timed out/);
    });

    conform('aborts the in-flight request when the signal fires, without retrying', async () => {
      const { model, sleeps } = await setup([{ kind: 'hang' }, 'text.sse']);
      const controller = new AbortController();
      // Abort once the server holds the request (not after a fixed time, which a busy machine may not reach).
      const received = setInterval(() => {
        if (server!.requests.length > 0) controller.abort();
      }, 5);
      const error = await model
        .complete(request({ signal: controller.signal }))
        .finally(() => clearInterval(received))
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(error).toBeInstanceOf(AbortError);
      expect(sleeps).toEqual([]);
      expect(server!.requests).toHaveLength(1);
    });

    conform('completes even when the stream listener throws', async () => {
      const { model } = await setup(['text.sse']);
      const response = await model.complete(
        request({
          onStream: () => {
            throw new Error('listener bug');
          },
        }),
      );
      expect(response.message.text).toBe('Hello, world! ✓');
    });
    it('names only cases of the suite as not applicable', () => {
      expect([...notApplicable.keys()].filter((name) => !names.has(name))).toEqual([]);
    });
  });
}
