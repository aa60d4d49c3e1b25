import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderInput, ttyApprover } from '../../src/cli/tty-approver.js';
import type { ApprovalRequest } from '../../src/index.js';

const request = (input: unknown, signal = new AbortController().signal): ApprovalRequest => ({
  toolName: 'Bash',
  input,
  message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
  signal,
});

/** A terminal whose user types `replies`, one per prompt. */
function terminal(replies: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (shown.endsWith('[a]lways ')) {
      const reply = replies.shift();
      if (reply === undefined) input.end();
      else setImmediate(() => input.write(`${reply}\n`));
    }
  });
  return { input, output, shown: () => shown };
}

describe('ttyApprover', () => {
  it('shows the call and the question, and maps the answer', async () => {
    const tty = terminal(['y']);
    expect(await ttyApprover(tty).approve(request({ command: 'npm install' }))).toBe('allow');
    expect(tty.shown()).toContain('Bash: npm install\n');
    expect(tty.shown()).toContain(
      "Claude requested permissions to use Bash, but you haven't granted it yet.\n",
    );
    expect(tty.shown()).toContain('Allow? [y]es / [n]o / [a]lways ');
  });

  it.each([
    ['a', 'always'],
    ['always', 'always'],
    ['n', 'deny'],
    ['', 'deny'],
    ['YES', 'allow'],
  ])('answer %j → %s', async (reply, expected) => {
    expect(await ttyApprover(terminal([reply])).approve(request({ command: 'x' }))).toBe(expected);
  });

  it('asks again after an unclear answer, then denies after three', async () => {
    expect(await ttyApprover(terminal(['what', 'y'])).approve(request({}))).toBe('allow');
    expect(await ttyApprover(terminal(['?', '?', '?'])).approve(request({}))).toBe('deny');
  });

  it('denies when the input ends or the request is aborted', async () => {
    expect(await ttyApprover(terminal([])).approve(request({}))).toBe('deny');
    const controller = new AbortController();
    const tty = { input: new PassThrough(), output: new PassThrough() };
    const answer = ttyApprover(tty).approve(request({}, controller.signal));
    setTimeout(() => controller.abort(), 10);
    expect(await answer).toBe('deny');
  });

  it('asks concurrent requests one after another', async () => {
    const tty = terminal(['y', 'n']);
    const approver = ttyApprover(tty);
    const answers = await Promise.all([
      approver.approve(request({ command: 'first' })),
      approver.approve(request({ command: 'second' })),
    ]);
    expect(answers).toEqual(['allow', 'deny']);
    expect(tty.shown().indexOf('Bash: second')).toBeGreaterThan(tty.shown().indexOf('Bash: first'));
  });
});

describe('renderInput', () => {
  it('shows the command or path, else short JSON', () => {
    expect(renderInput({ command: 'ls' })).toBe('ls');
    expect(renderInput({ file_path: '/a/b', content: 'x' })).toBe('/a/b');
    expect(renderInput({ text: 'x'.repeat(300) })).toHaveLength(200);
  });
});
