import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools, callbackApprover, type ApprovalRequest } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// A read-only command is only harmless when the program it names is the system's: with a PATH entry
// inside the workspace (or relative), an acceptEdits `install -m 755 x bin/ls` would make the next
// auto-allowed `ls` run the model's file. And locale or time-zone values that are paths make
// programs load data from anywhere.

const savedPath = process.env['PATH'];
afterEach(() => {
  process.env['PATH'] = savedPath;
});

async function run(dir: string, commands: readonly string[]) {
  const asked: ApprovalRequest[] = [];
  const { result } = await scriptedRun(
    [commands.map((command, index) => toolUse(`toolu_${index}`, 'Bash', { command })), [text('done')]],
    {
      projectDir: dir,
      tools: builtinTools(),
      approver: callbackApprover((request) => (asked.push(request), 'deny')),
    },
  );
  return {
    asked: asked.map((request) => (request.input as { command: string }).command),
    results: toolResults(result.messages),
  };
}

describe('read-only programs come from a PATH the model cannot write', () => {
  it('with a workspace directory on PATH, external programs ask and builtins still run', async () => {
    const dir = tempProject({ 'notes.txt': 'n\n' });
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'ls'), '#!/bin/sh\ntouch "$(dirname "$0")/../pwned"\n', {
      mode: 0o755,
    });
    process.env['PATH'] = `${path.join(dir, 'bin')}:${savedPath ?? ''}`;
    const { asked } = await run(dir, ['ls', 'cat notes.txt', 'echo hi', 'pwd']);
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect(asked).toEqual(['ls']); // bin/ holds no cat: bash finds the system's
  }, 60_000);

  it('a workspace directory on PATH that holds none of the programs changes nothing (npx puts node_modules/.bin there)', async () => {
    const dir = tempProject({ 'notes.txt': 'n\n', 'node_modules/.bin/tsc': '#!/bin/sh\n' });
    process.env['PATH'] = `${path.join(dir, 'node_modules', '.bin')}:${savedPath ?? ''}`;
    const { asked } = await run(dir, ['ls', 'cat notes.txt', 'git status']);
    expect(asked).toEqual([]);
  }, 60_000);

  it('an empty PATH entry (the cwd) counts as inside the workspace', async () => {
    const dir = tempProject({ 'notes.txt': 'n\n' });
    process.env['PATH'] = `:${savedPath ?? ''}`;
    const { asked } = await run(dir, ['cat notes.txt', 'echo hi']);
    expect(asked).toEqual(['cat notes.txt']);
  }, 60_000);

  it('locale and time-zone values that name files ask; ordinary ones stay read-only', async () => {
    const dir = tempProject({ 'f.txt': 'b\na\n' });
    const { asked, results } = await run(dir, [
      'LC_ALL=/tmp/evil sort f.txt',
      'TZ=:/etc/passwd date +%s',
      'TZ=../../x date',
      'LC_ALL=C sort f.txt',
      'TZ=Europe/Paris date +%Y',
      'LANG=C.UTF-8 cat f.txt',
    ]);
    expect(asked).toEqual(['LC_ALL=/tmp/evil sort f.txt', 'TZ=:/etc/passwd date +%s', 'TZ=../../x date']);
    expect(results.find((result) => result.toolCallId === 'toolu_3')?.content).toBe('a\nb');
  }, 60_000);
});
