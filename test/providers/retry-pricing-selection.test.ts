import { describe, expect, it } from 'vitest';
import { describeSelection, selectModel, DEFAULT_ANTHROPIC_MODEL } from '../../src/cli/select-model.js';
import { textStreamPrinter } from '../../src/cli/stream-output.js';
import { AbortError, ConfigError } from '../../src/index.js';
import { costUsd, priceOf, totalCostUsd } from '../../src/model/pricing.js';
import { abortableSleep, parseRetryAfter, retryDelayMs, withRetries } from '../../src/model/retry.js';
import { emptyTally, tallyUsage } from '../../src/model/usage.js';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('retry policy', () => {
  it('backs off exponentially with up to half taken off by jitter, capped', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, undefined, { random: () => 0 }))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect(retryDelayMs(1, undefined, { random: () => 0.999999 })).toBe(250);
    expect(retryDelayMs(20, undefined, { random: () => 0, maxDelayMs: 8000 })).toBe(8000);
    expect(retryDelayMs(3, 1234)).toBe(1234);
  });

  it('reads retry-after-ms, retry-after seconds and retry-after dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(
      parseRetryAfter(
        headers({ 'retry-after': 'Mon, 30 Nov 2026 00:00:10 GMT' }),
        Date.parse('Mon, 30 Nov 2026 00:00:00 GMT'),
      ),
    ).toBe(10_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('retries only what the verdict allows, at most maxRetries times, and gives up on a retry-after beyond the limit', async () => {
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(new Error('flaky')) : Promise.resolve('ok'));
    await expect(withRetries(flaky, () => ({ retry: true }), { sleep, random: () => 0 })).resolves.toBe('ok');
    expect(sleeps).toEqual([500, 1000]);

    calls = 0;
    await expect(withRetries(flaky, () => ({ retry: false }), { sleep })).rejects.toThrow('flaky');
    expect(calls).toBe(1);

    calls = 0;
    await expect(withRetries(flaky, () => ({ retry: true }), { sleep, maxRetries: 1 })).rejects.toThrow(
      'flaky',
    );
    expect(calls).toBe(2);

    calls = 0;
    await expect(
      withRetries(flaky, () => ({ retry: true, retryAfterMs: 3_600_000 }), { sleep }),
    ).rejects.toThrow('flaky');
    expect(calls).toBe(1);
  });

  it('stops waiting when the run is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(abortableSleep(10_000, controller.signal)).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('price table and usage', () => {
  it('prices known models and their dated snapshots, in USD', () => {
    expect(priceOf('claude-haiku-4-5-20251001')).toEqual(priceOf('claude-haiku-4-5'));
    expect(
      costUsd('claude-opus-4-8', {
        inputTokens: 1_000_000,
        outputTokens: 1_000_000,
        cacheReadInputTokens: 1_000_000,
        cacheCreationInputTokens: 1_000_000,
      }),
    ).toBeCloseTo(5 + 25 + 0.5 + 6.25);
    expect(costUsd('gpt-5', { inputTokens: 1, outputTokens: 1 })).toBeUndefined();
  });

  it('a run costs the sum over its models, null when one has no known price, 0 without requests', () => {
    expect(
      totalCostUsd({
        'claude-sonnet-5-5': { inputTokens: 1_000_000, outputTokens: 0 },
        'claude-haiku-4-5': { inputTokens: 0, outputTokens: 1_000_000 },
      }),
    ).toBeCloseTo(2 + 5);
    expect(
      totalCostUsd({
        'claude-sonnet-5-5': { inputTokens: 1, outputTokens: 1 },
        scripted: { inputTokens: 1, outputTokens: 1 },
      }),
    ).toBeNull();
    expect(totalCostUsd({})).toBe(0);
  });

  it('tallies usage per run and per model, cache counts included', () => {
    const tally = emptyTally();
    tallyUsage(tally, 'a', { inputTokens: 1, outputTokens: 2, cacheReadInputTokens: 10 });
    tallyUsage(tally, 'b', { inputTokens: 3, outputTokens: 4 });
    tallyUsage(tally, 'a', { inputTokens: 5, outputTokens: 6, cacheCreationInputTokens: 7 });
    expect(tally.total).toEqual({
      inputTokens: 9,
      outputTokens: 12,
      cacheReadInputTokens: 10,
      cacheCreationInputTokens: 7,
    });
    expect(tally.byModel).toEqual({
      a: { inputTokens: 6, outputTokens: 8, cacheReadInputTokens: 10, cacheCreationInputTokens: 7 },
      b: { inputTokens: 3, outputTokens: 4 },
    });
  });
});

describe('provider selection', () => {
  it('follows the documented order: --provider, --model-script, Anthropic credentials, OpenAI settings, none', () => {
    const both = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', OPENAI_MODEL: 'gpt-5' };
    expect(selectModel({ provider: 'openai' }, both)).toMatchObject({
      provider: 'openai',
      why: '--provider openai',
      options: { model: 'gpt-5', apiKey: 'o' },
    });
    expect(selectModel({ modelScript: 't.json' }, both)).toMatchObject({
      provider: 'scripted',
      modelScript: 't.json',
    });
    expect(selectModel({}, both)).toMatchObject({
      provider: 'anthropic',
      why: 'ANTHROPIC_API_KEY',
      options: { model: DEFAULT_ANTHROPIC_MODEL, apiKey: 'a' },
    });
    expect(
      selectModel(
        {},
        { ANTHROPIC_AUTH_TOKEN: 't', ANTHROPIC_MODEL: 'claude-opus-4-8', ANTHROPIC_BASE_URL: 'http://gw' },
      ),
    ).toMatchObject({
      provider: 'anthropic',
      options: { model: 'claude-opus-4-8', authToken: 't', baseURL: 'http://gw' },
    });
    expect(
      selectModel({ model: 'llama3.1' }, { OPENAI_BASE_URL: 'http://localhost:11434/v1' }),
    ).toMatchObject({
      provider: 'openai',
      why: 'OPENAI_BASE_URL',
      options: { model: 'llama3.1', baseURL: 'http://localhost:11434/v1' },
    });
    expect(selectModel({}, {})).toEqual({ provider: 'none' });
  });

  it('says what it chose and why, for --verbose', () => {
    const selection = selectModel(
      {},
      { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: 'http://127.0.0.1:8800' },
    );
    expect(selection.provider !== 'none' && describeSelection(selection)).toBe(
      `anthropic ${DEFAULT_ANTHROPIC_MODEL} at http://127.0.0.1:8800 (chosen by ANTHROPIC_API_KEY)`,
    );
  });

  it('reads the shared settings from the environment', () => {
    const selection = selectModel(
      {},
      {
        ANTHROPIC_API_KEY: 'a',
        HOOKLOOP_SYSTEM_MESSAGES: 'user-text',
        API_TIMEOUT_MS: '30000',
        HOOKLOOP_MAX_RETRIES: '0',
        HOOKLOOP_MAX_OUTPUT_TOKENS: '4096',
        DISABLE_PROMPT_CACHING: '1',
      },
    );
    expect(selection).toMatchObject({
      options: {
        systemMessages: 'user-text',
        timeoutMs: 30000,
        retry: { maxRetries: 0 },
        maxTokens: 4096,
        promptCaching: false,
      },
    });
  });

  it('names the flag or variable that is missing or wrong', () => {
    const fails = (flags: Parameters<typeof selectModel>[0], env: Record<string, string>) => () =>
      selectModel(flags, env);
    expect(fails({ provider: 'scripted' }, {})).toThrow(/--provider scripted needs --model-script/);
    expect(fails({ provider: 'anthropic', modelScript: 't.json' }, {})).toThrow(
      /cannot be combined with --provider anthropic/,
    );
    expect(fails({ provider: 'anthropic' }, {})).toThrow(/set ANTHROPIC_API_KEY/);
    expect(fails({ provider: 'openai' }, {})).toThrow(/set OPENAI_API_KEY .* or OPENAI_BASE_URL/);
    expect(fails({}, { OPENAI_API_KEY: 'k' })).toThrow(
      /needs a model: pass --model NAME or set OPENAI_MODEL/,
    );
    expect(fails({}, { ANTHROPIC_API_KEY: 'k', HOOKLOOP_SYSTEM_MESSAGES: 'both' })).toThrow(
      /HOOKLOOP_SYSTEM_MESSAGES: expected one of auto, system-role, user-text/,
    );
    expect(fails({}, { ANTHROPIC_API_KEY: 'k', API_TIMEOUT_MS: '10s' })).toThrow(ConfigError);
  });
});

describe('text mode printing', () => {
  it('prints deltas as they come, ends each streamed turn on a new line, and knows the final answer was printed', () => {
    let out = '';
    const printer = textStreamPrinter((text) => (out += text));
    const stream = printer.observer;
    const usage = { inputTokens: 0, outputTokens: 0 };
    stream({ type: 'model_stream', turn: 1, event: { type: 'message_start' } });
    stream({ type: 'model_stream', turn: 1, event: { type: 'text_delta', text: 'Looking' } });
    stream({ type: 'model_stream', turn: 1, event: { type: 'message_stop', stopReason: 'tool_use', usage } });
    stream({ type: 'model_stream', turn: 2, event: { type: 'message_start' } });
    stream({ type: 'model_stream', turn: 2, event: { type: 'text_delta', text: 'Done.' } });
    stream({ type: 'model_stream', turn: 2, event: { type: 'message_stop', stopReason: 'end_turn', usage } });
    expect(out).toBe('Looking\nDone.\n');
    expect(printer.alreadyPrinted('Done.')).toBe(true);
    expect(printer.alreadyPrinted('API Error: 500 boom')).toBe(false);
    expect(printer.alreadyPrinted('')).toBe(false);
  });
});
