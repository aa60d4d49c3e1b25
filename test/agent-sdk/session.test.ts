import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/index.js';
import {
  query,
  type Options,
  type SDKMessage,
  type SDKSystemMessage,
  type SDKUserMessage,
} from '../../src/agent-sdk/index.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject } from '../support/scripted-run.js';
import { collect, scripted, toolResults } from './support.js';

const sessionIdOf = (messages: readonly SDKMessage[]) => (messages[0] as { session_id: string }).session_id;

/** The scripted model, streaming each answer's text in two deltas as a real provider would. */
class StreamingModel implements ModelClient {
  readonly name = 'streaming';
  constructor(private readonly inner: ScriptedModel) {}
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.inner.complete(request);
    const text = response.message.text;
    request.onStream?.({ type: 'message_start', model: 'streaming' });
    request.onStream?.({ type: 'text_delta', text: text.slice(0, 2) });
    request.onStream?.({ type: 'text_delta', text: text.slice(2) });
    request.onStream?.({ type: 'message_stop', stopReason: response.stopReason, usage: response.usage });
    return response;
  }
}

describe('hookloop/agent-sdk query(): sessions, interrupts and streams', () => {
  it('resume keeps the session id and the conversation; forkSession goes on under a new id', async () => {
    const cwd = tempProject();
    const first = scripted([[{ type: 'text', text: 'noted: 42' }]], { cwd });
    const opened = await collect(query({ prompt: 'remember 42', options: first.options }));
    const id = sessionIdOf(opened);

    const second = scripted([[{ type: 'text', text: 'it was 42' }]], { cwd, resume: id });
    const resumed = await collect(query({ prompt: 'what number?', options: second.options }));
    expect(sessionIdOf(resumed)).toBe(id);
    expect(resumed.at(-1)).toMatchObject({ session_id: id, result: 'it was 42' });
    expect(JSON.stringify(second.model.requests[0]!.messages)).toContain('remember 42');

    const third = scripted([[{ type: 'text', text: 'still 42' }]], { cwd, resume: id, forkSession: true });
    const forked = await collect(query({ prompt: 'and now?', options: third.options }));
    expect(sessionIdOf(forked)).not.toBe(id);
    expect(JSON.stringify(third.model.requests[0]!.messages)).toContain('what number?');
  });

  it('resume of a session that does not exist is one clear error', async () => {
    const { options } = scripted([], { resume: '00000000-0000-4000-8000-000000000000' });
    await expect(collect(query({ prompt: 'go', options }))).rejects.toThrow(
      /cannot resume: no such transcript/,
    );
  });

  it('interrupt() ends the turn: the call is paired, an error_during_execution result, then the stream throws', async () => {
    const { options } = scripted(
      [[{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 30' } }]],
      {
        allowedTools: ['Bash'],
      },
    );
    const stream = query({ prompt: 'wait', options });
    const seen: SDKMessage[] = [];
    let thrown: unknown;
    try {
      for await (const message of stream) {
        seen.push(message);
        if (message.type === 'assistant') await stream.interrupt();
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AbortError);
    expect(toolResults(seen).map((block) => block.tool_use_id)).toEqual(['toolu_1']);
    expect(seen.at(-1)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });
  });

  it('aborting the abortController makes the stream throw without a result', async () => {
    const abortController = new AbortController();
    const { options } = scripted(
      [[{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 30' } }]],
      {
        allowedTools: ['Bash'],
        abortController,
      },
    );
    const seen: SDKMessage[] = [];
    let thrown: unknown;
    try {
      for await (const message of query({ prompt: 'wait', options })) {
        seen.push(message);
        if (message.type === 'assistant') abortController.abort();
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AbortError);
    expect(seen.some((message) => message.type === 'result')).toBe(false);
  });

  it('includePartialMessages adds the deltas as stream_event messages before the assistant message', async () => {
    const model = new StreamingModel(new ScriptedModel([[{ type: 'text', text: 'hello' }]]));
    const messages = await collect(
      query({
        prompt: 'hi',
        options: {
          cwd: tempProject(),
          settingSources: [],
          includePartialMessages: true,
          hookloop: { model },
        },
      }),
    );
    const kinds = messages.map((message) =>
      message.type === 'stream_event' ? `stream_event:${message.event.type}` : message.type,
    );
    expect(kinds[0]).toBe('system');
    expect(kinds).toContain('stream_event:content_block_delta');
    expect(kinds.indexOf('stream_event:message_stop')).toBeLessThan(kinds.indexOf('assistant'));
    const deltas = messages.flatMap((message) =>
      message.type === 'stream_event' && message.event.type === 'content_block_delta'
        ? [(message.event['delta'] as { text: string }).text]
        : [],
    );
    expect(deltas.join('')).toBe('hello');
    expect(kinds.at(-1)).toBe('result');

    const quiet = await collect(
      query({
        prompt: 'hi',
        options: {
          cwd: tempProject(),
          settingSources: [],
          hookloop: { model: new StreamingModel(new ScriptedModel([[{ type: 'text', text: 'hello' }]])) },
        },
      }),
    );
    expect(quiet.some((message) => message.type === 'stream_event')).toBe(false);
  });

  it('streaming input: each user message is one turn with its own result, in one session', async () => {
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'first question' }, parent_tool_use_id: null };
      yield {
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: 'second question' }] },
        parent_tool_use_id: null,
      };
    }
    const { model, options } = scripted([[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]]);
    const messages = await collect(query({ prompt: prompts(), options }));
    const results = messages.filter((message) => message.type === 'result');
    expect(results.map((result) => result.result)).toEqual(['one', 'two']);
    expect(new Set(results.map((result) => result.session_id)).size).toBe(1);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('first question');
  });

  it('maxTurns ends the run with error_max_turns', async () => {
    const { options } = scripted(
      [
        [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo 1' } }],
        [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'echo 2' } }],
      ],
      { maxTurns: 1, allowedTools: ['Bash'] },
    );
    const messages = await collect(query({ prompt: 'loop', options }));
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_turns', is_error: true });
    expect(toolResults(messages).map((block) => block.tool_use_id)).toEqual(['toolu_1']);
  });

  it('an option hookloop cannot honour is one error naming it; process-only options are accepted', async () => {
    const { options } = scripted([[{ type: 'text', text: 'fine' }]]);
    await expect(
      collect(query({ prompt: 'go', options: { ...options, fallbackModel: 'x' } })),
    ).rejects.toThrow('query() options.fallbackModel: not supported by hookloop/agent-sdk');
    const notAStore = {} as unknown as Options['sessionStore'];
    await expect(
      collect(query({ prompt: 'go', options: { ...options, sessionStore: notAStore } })),
    ).rejects.toThrow(
      /^query\(\) options.sessionStore: expected a SessionStore \(an object with append\(\) and load\(\) methods\)$/,
    );
    const messages = await collect(
      query({
        prompt: 'go',
        options: { ...options, pathToClaudeCodeExecutable: '/usr/bin/claude', executable: 'node' },
      }),
    );
    expect(messages.at(-1)).toMatchObject({ subtype: 'success', result: 'fine' });
  });

  it('systemPrompt: a string is the system prompt; the claude_code preset is hookloop’s prompt with append', async () => {
    const plain = scripted([[{ type: 'text', text: 'ok' }]], { systemPrompt: 'You are a pirate.' });
    await collect(query({ prompt: 'hi', options: plain.options }));
    expect(plain.model.requests[0]!.system).toBe('You are a pirate.');

    const preset = scripted([[{ type: 'text', text: 'ok' }]], {
      systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer in French.' },
    });
    await collect(query({ prompt: 'hi', options: preset.options }));
    const system = preset.model.requests[0]!.system;
    expect(system).toContain('Working directory:');
    expect(system.endsWith('\n\nAlways answer in French.')).toBe(true);
  });
  it('close() ends the stream without a result and without throwing; a reader that breaks ends the turn', async () => {
    const sleeping = () =>
      scripted([[{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 30' } }]], {
        allowedTools: ['Bash'],
      }).options;
    const stream = query({ prompt: 'wait', options: sleeping() });
    const seen: SDKMessage[] = [];
    for await (const message of stream) {
      seen.push(message);
      if (message.type === 'assistant') stream.close();
    }
    expect(seen.some((message) => message.type === 'result')).toBe(false);

    // `break` returns the generator: the sleeping call is stopped instead of waited for.
    for await (const message of query({ prompt: 'wait', options: sleeping() })) {
      if (message.type === 'assistant') break;
    }
  });

  it('sessionId names the session; persistSession: false writes no transcript, so it cannot be resumed', async () => {
    const cwd = tempProject();
    const sessionId = '11111111-2222-4333-8444-555555555555';
    const first = scripted([[{ type: 'text', text: 'ok' }]], { cwd, sessionId, persistSession: false });
    const opened = await collect(query({ prompt: 'hi', options: first.options }));
    expect(sessionIdOf(opened)).toBe(sessionId);
    const again = scripted([], { cwd, resume: sessionId });
    await expect(collect(query({ prompt: 'hi', options: again.options }))).rejects.toThrow(
      /no such transcript/,
    );
  });

  it('continue: true resumes the latest session of the directory', async () => {
    const cwd = tempProject();
    const first = scripted([[{ type: 'text', text: 'ok' }]], { cwd });
    const id = sessionIdOf(await collect(query({ prompt: 'the word is kiwi', options: first.options })));
    const next = scripted([[{ type: 'text', text: 'kiwi' }]], { cwd, continue: true });
    const continued = await collect(query({ prompt: 'the word?', options: next.options }));
    expect(sessionIdOf(continued)).toBe(id);
    expect(JSON.stringify(next.model.requests[0]!.messages)).toContain('the word is kiwi');
  });

  it('tools: a list of built-in names is all the model is offered; an unknown name is refused', async () => {
    const { model, options } = scripted([[{ type: 'text', text: 'ok' }]], { tools: ['Read', 'Grep'] });
    const messages = await collect(query({ prompt: 'hi', options }));
    expect(model.requests[0]!.tools?.map((spec) => spec.name)).toEqual(['Read', 'Grep']);
    expect((messages[0] as SDKSystemMessage).tools).toEqual(['Read', 'Grep']);
    const bad = scripted([], { tools: ['Reed'] });
    await expect(collect(query({ prompt: 'hi', options: bad.options }))).rejects.toThrow(
      /^query\(\) options.tools\[0\]: no built-in tool named "Reed"/,
    );
  });
  it('permissionMode auto runs as dontAsk and says so on stderr; hookloop warnings go there', async () => {
    const lines: string[] = [];
    const { options } = scripted(
      [
        [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'touch made' } }],
        [{ type: 'text', text: 'ok' }],
      ],
      { permissionMode: 'auto', stderr: (data) => lines.push(data) },
    );
    const messages = await collect(query({ prompt: 'go', options }));
    expect(messages[0]).toMatchObject({ permissionMode: 'auto' });
    expect(lines.join('')).toMatch(/^hookloop: warning: .*auto.*dontAsk/m);
    expect(toolResults(messages)[0]!.is_error).toBe(true);
  });
});
