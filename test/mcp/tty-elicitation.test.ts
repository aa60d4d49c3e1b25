import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ttyElicitor } from '../../src/cli/tty-elicitation.js';

const request = {
  serverName: 'test',
  message: 'Who are you?',
  mode: 'form' as const,
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' }, admin: { type: 'boolean' } },
  },
};

/** A terminal that types the next answer whenever a question (`…: `) appears, and closes its input after the last. */
function terminal(answers: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  const queue = answers.split('\n').slice(0, -1);
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (!shown.endsWith(': ')) return;
    const next = queue.shift();
    if (next === undefined) input.end();
    else input.write(`${next}\n`);
  });
  if (queue.length === 0) setImmediate(() => input.end());
  return { streams: { input, output }, shown: () => shown };
}

describe('ttyElicitor (interactive elicitation)', () => {
  it('asks each field and accepts with typed content', async () => {
    const { streams, shown } = terminal('Ada\n36\nyes\n');
    const answer = await ttyElicitor(streams)(request, new AbortController().signal);
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 36, admin: true } });
    expect(shown()).toContain('MCP server "test" asks: Who are you?');
  });

  it('an empty first answer declines; a closed input cancels', async () => {
    expect(await ttyElicitor(terminal('\n').streams)(request, new AbortController().signal)).toEqual({
      action: 'decline',
    });
    expect(await ttyElicitor(terminal('').streams)(request, new AbortController().signal)).toEqual({
      action: 'cancel',
    });
  });
});
