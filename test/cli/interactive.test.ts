import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runInteractive } from '../../src/cli/interactive.js';
import { defineTool, HookEngine, startSession } from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { pairingViolations, tempProject, text, toolUse } from '../support/scripted-run.js';

// Interactive mode driven through its streams, as a terminal would drive it.

function harness(turns: readonly ScriptTurn[], tools = [] as Parameters<typeof startSession>[0]['tools']) {
  const model = new ScriptedModel(turns);
  const hooks = new HookEngine();
  const events: string[] = [];
  hooks.on('UserPromptSubmit', ({ prompt }) => void events.push(`UserPromptSubmit:${prompt}`));
  hooks.on('Stop', ({ last_assistant_message }) => void events.push(`Stop:${last_assistant_message}`));
  hooks.on(
    'PreCompact',
    ({ trigger, custom_instructions }) => void events.push(`PreCompact:${trigger}:${custom_instructions}`),
  );
  hooks.on('SessionStart', ({ source }) => void events.push(`SessionStart:${source}`));
  hooks.on('SessionEnd', ({ reason }) => void events.push(`SessionEnd:${reason}`));
  const input = new PassThrough();
  const output = new PassThrough();
  const notices = new PassThrough();
  let shown = '';
  let noted = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  notices.on('data', (chunk: Buffer) => (noted += chunk.toString()));
  const signals = new EventEmitter();
  return {
    model,
    events,
    input,
    signals,
    shown: () => shown,
    noted: () => noted,
    start: async () => {
      const session = await startSession({
        model,
        projectDir: tempProject(),
        hooks,
        tools,
        permissions: { rules: { allow: ['Wait'] } },
      });
      return { session, done: runInteractive({ session }, { input, output, notices, signals }) };
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('interactive mode', () => {
  it('runs prompt after prompt in one session: UserPromptSubmit and Stop per prompt, /compact, /exit ends with prompt_input_exit', async () => {
    const h = harness([
      [text('first answer')],
      { match: 'create a detailed summary of the conversation', content: [text('<summary>S</summary>')] },
      [text('second answer')],
    ]);
    const { session, done } = await h.start();
    h.input.write('hello\n');
    await until(() => h.shown().includes('first answer'));
    h.input.write('/compact keep the names\n');
    await until(() => h.noted().includes('conversation compacted'));
    h.input.write('and then?\n/exit\n');
    expect(await done).toBe(0);
    expect(h.events).toEqual([
      'SessionStart:startup',
      'UserPromptSubmit:hello',
      'Stop:first answer',
      'PreCompact:manual:keep the names',
      'SessionStart:compact',
      'UserPromptSubmit:and then?',
      'Stop:second answer',
      'SessionEnd:prompt_input_exit',
    ]);
    expect(h.shown()).toContain('second answer');
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'user', 'assistant']);
    h.model.assertConsumed();
  });

  it('Ctrl-C interrupts the running turn, keeps every call paired, and the next prompt runs; end of input leaves', async () => {
    let started = false;
    const wait = defineTool({
      name: 'Wait',
      description: 'waits until interrupted',
      inputSchema: z.object({}),
      handler: (_input, context) =>
        new Promise<string>((_resolve, reject) => {
          started = true;
          context.signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
        }),
    });
    const h = harness(
      [[toolUse('toolu_01', 'Wait', {}), toolUse('toolu_02', 'Wait', {})], [text('after the interrupt')]],
      [wait],
    );
    const { session, done } = await h.start();
    h.input.write('wait for it\n');
    await until(() => started);
    h.signals.emit('SIGINT');
    await until(() => h.noted().includes('(interrupted)'));
    expect(pairingViolations(session.messages)).toEqual([]);
    expect(
      session.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId),
    ).toEqual(['toolu_01', 'toolu_02']);
    h.input.write('still there?\n');
    await until(() => h.shown().includes('after the interrupt'));
    h.input.end();
    expect(await done).toBe(0);
    expect(h.events.at(-1)).toBe('SessionEnd:prompt_input_exit');
    expect(h.events.filter((event) => event.startsWith('Stop:'))).toEqual(['Stop:after the interrupt']);
  });
});
