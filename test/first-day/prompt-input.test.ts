import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

/** Runs the CLI with `input` piped on stdin (then closed). */
function runWithStdin(args: readonly string[], cwd: string, input: string) {
  const home = path.join(cwd, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
    timeout: 60_000,
  });
}

/** The text of the last user message of the only recorded model request. */
function promptSent(dir: string): string {
  const [line, ...more] = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n');
  expect(more).toEqual([]);
  const request = JSON.parse(line!) as { messages: { content: { type: string; text: string }[] }[] };
  return request.messages
    .at(-1)!
    .content.map((block) => block.text)
    .join('');
}

function project(): string {
  const dir = tempProject();
  writeJson(dir, 't.json', [[{ type: 'text', text: 'ANSWER' }]]);
  return dir;
}

const RUN = ['--model-script', 't.json', '--record-requests', 'requests.jsonl'];

describe('the prompt of a headless run, as in Claude Code', () => {
  it('comes on stdin: echo "…" | hookloop -p', () => {
    const dir = project();
    const run = runWithStdin(['-p', ...RUN], dir, 'summarise the notes\n');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ANSWER\n');
    expect(promptSent(dir)).toBe('summarise the notes\n');
  });

  it('with an argument too, the piped text follows the argument', () => {
    const dir = project();
    const run = runWithStdin(['-p', 'explain this diff', ...RUN], dir, '+added line\n');
    expect(run.status).toBe(0);
    expect(promptSent(dir)).toBe('explain this diff\n+added line\n');
  });

  it('-p "" with nothing piped is an error on one line, exit 2', () => {
    const dir = project();
    const run = runCli(['-p', '', ...RUN], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'hookloop: -p: Input must be provided either through stdin or as a prompt argument when using --print\n',
    );
    expect(fs.existsSync(path.join(dir, 'requests.jsonl'))).toBe(false);
  });

  for (const args of [
    ['-p', 'fix', 'the', 'build'],
    ['fix', 'the', 'build'],
  ]) {
    it(`extra words are an error, not dropped: hookloop ${args.join(' ')}`, () => {
      const dir = project();
      const run = runCli([...args, ...RUN], dir);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        'hookloop: unexpected extra argument "the": the prompt is one argument; quote it, e.g. -p "fix the build"\n',
      );
      expect(fs.existsSync(path.join(dir, 'requests.jsonl'))).toBe(false);
    });
  }
});
