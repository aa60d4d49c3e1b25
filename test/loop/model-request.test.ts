import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Message, type ModelClient, runAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// The loop hands each request its own conversation list instead of a copy (a copy per request made
// the cost of a call grow with the transcript, bench row 5); whoever keeps a request copies it.

const echo = defineTool({
  name: 'Echo',
  description: 'echoes',
  inputSchema: z.strictObject({ n: z.number() }),
  readOnly: true,
  handler: ({ n }) => `echo ${n}`,
});
const script = () => [
  [toolUse('toolu_1', 'Echo', { n: 1 })],
  [toolUse('toolu_2', 'Echo', { n: 2 })],
  [text('done')],
];

describe('model requests and the conversation', () => {
  it('the scripted model records each request with the conversation as it was then', async () => {
    const model = new ScriptedModel(script());
    await runAgent('go', { model, projectDir: tempProject(), tools: [echo], transcript: false });
    expect(model.requests.map((request) => request.messages.length)).toEqual([1, 3, 5]);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('record: false keeps no requests and still answers in order', async () => {
    const model = new ScriptedModel(script(), { record: false });
    const result = await runAgent('go', {
      model,
      projectDir: tempProject(),
      tools: [echo],
      transcript: false,
    });
    expect(result.result).toBe('done');
    expect(model.requests).toEqual([]);
    model.assertConsumed();
  });

  it('the loop does not change the conversation while a request runs, and appends to the same list afterwards', async () => {
    const seen: { list: readonly Message[]; length: number; lengthAfterAwait: number }[] = [];
    const inner = new ScriptedModel(script(), { record: false });
    const model: ModelClient = {
      name: 'watching',
      complete: async (request) => {
        const length = request.messages.length;
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push({ list: request.messages, length, lengthAfterAwait: request.messages.length });
        return inner.complete(request);
      },
    };
    const result = await runAgent('go', {
      model,
      projectDir: tempProject(),
      tools: [echo],
      transcript: false,
    });
    expect(seen.map((entry) => entry.length)).toEqual([1, 3, 5]);
    expect(seen.every((entry) => entry.lengthAfterAwait === entry.length)).toBe(true);
    expect(seen[0]!.list).toBe(result.messages);
  });
});
