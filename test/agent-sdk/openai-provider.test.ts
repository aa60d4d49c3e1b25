import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { query } from '../../src/agent-sdk/index.js';
import { tempProject } from '../support/scripted-run.js';
import { collect, toolResults } from './support.js';

type Turn = { text?: string; call?: { id: string; name: string; arguments: string } };

/** A chat-completions server on 127.0.0.1 that streams `turns` in order, one per request. */
async function chatCompletions(turns: readonly Turn[]): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      const turn = turns[next++] ?? { text: 'no more turns' };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'qwen3:8b', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (turn.text !== undefined) {
        response.write(chunk({ role: 'assistant', content: turn.text.slice(0, 3) }));
        response.write(chunk({ content: turn.text.slice(3) }));
      }
      if (turn.call)
        response.write(
          chunk({
            tool_calls: [
              {
                index: 0,
                id: turn.call.id,
                type: 'function',
                function: { name: turn.call.name, arguments: turn.call.arguments },
              },
            ],
          }),
        );
      response.write(chunk({}, turn.call ? 'tool_calls' : 'stop'));
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
  };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('hookloop/agent-sdk on an OpenAI-compatible server chosen from options.env', () => {
  it('runs an SDK program unchanged but for its import: hooks, deltas, the key kept from Bash', async () => {
    const server = await chatCompletions([
      {
        call: {
          id: 'call_1',
          name: 'Bash',
          arguments: JSON.stringify({ command: 'echo "key=$OPENAI_API_KEY"' }),
        },
      },
      { call: { id: 'call_2', name: 'Bash', arguments: JSON.stringify({ command: 'rm -rf /tmp/x' }) } },
      { text: 'All done.' },
    ]);
    const messages = await collect(
      query({
        prompt: 'Show the key, then clean up',
        options: {
          cwd: tempProject(),
          settingSources: [],
          model: 'qwen3:8b',
          env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-local-secret', PATH: process.env['PATH'] },
          allowedTools: ['Bash'],
          includePartialMessages: true,
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [
                  async (input) =>
                    input.hook_event_name === 'PreToolUse' &&
                    String((input.tool_input as { command?: string }).command).includes('rm -rf')
                      ? {
                          hookSpecificOutput: {
                            hookEventName: 'PreToolUse',
                            permissionDecision: 'deny',
                            permissionDecisionReason: 'no rm -rf',
                          },
                        }
                      : {},
                ],
              },
            ],
          },
        },
      }),
    );
    expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init', model: 'qwen3:8b' });
    expect(toolResults(messages).map((block) => [block.tool_use_id, block.content])).toEqual([
      ['call_1', 'key='],
      ['call_2', 'PreToolUse:Bash hook error: no rm -rf'],
    ]);
    expect(messages.some((message) => message.type === 'stream_event')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'All done.' });
    expect(server.bodies).toHaveLength(3);
    expect(server.bodies[0]).toMatchObject({ model: 'qwen3:8b' });
  });

  it('without a model configured, one line says how to configure one', async () => {
    await expect(
      collect(
        query({
          prompt: 'hi',
          options: { cwd: tempProject(), settingSources: [], env: { PATH: '/usr/bin' } },
        }),
      ),
    ).rejects.toThrow(/^query\(\): no model configured: set options.hookloop.model/);
  });
});
