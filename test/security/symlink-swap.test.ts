import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, callbackApprover } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Issue 14 item 10 (build item 5): Write and Edit change the file whose permission was decided.
// The approver runs between the decision and the write, so it stands in for a process that swaps a
// symlink into the path meanwhile — deterministically, no timing involved.

async function swapDuringApproval(dir: string, call: [string, Record<string, unknown>], swap: () => void) {
  const { result } = await scriptedRun([[toolUse('t1', call[0], call[1])], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    transcript: false,
    approver: callbackApprover(() => {
      swap();
      return 'allow';
    }),
  });
  return toolResults(result.messages)[0]!;
}

describe('a symlink swapped in between the permission and the write cannot redirect it', () => {
  it('Write: the file becomes a link to a canary outside the workspace', async () => {
    const dir = tempProject({ 'target.txt': 'old\n' });
    const canary = path.join(tempProject({ 'canary.txt': 'canary\n' }), 'canary.txt');
    const result = await swapDuringApproval(
      dir,
      ['Write', { file_path: 'target.txt', content: 'pwned' }],
      () => {
        fs.rmSync(path.join(dir, 'target.txt'));
        fs.symlinkSync(canary, path.join(dir, 'target.txt'));
      },
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain('nothing was done');
    expect(fs.readFileSync(canary, 'utf8')).toBe('canary\n');
  });

  it('Write: a parent directory becomes a link to a directory outside', async () => {
    const dir = tempProject({ 'sub/target.txt': 'old\n' });
    const outside = tempProject();
    const result = await swapDuringApproval(
      dir,
      ['Write', { file_path: 'sub/target.txt', content: 'pwned' }],
      () => {
        fs.rmSync(path.join(dir, 'sub'), { recursive: true });
        fs.symlinkSync(outside, path.join(dir, 'sub'));
      },
    );
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(outside, 'target.txt'))).toBe(false);
  });

  it('Edit: the file becomes a link to the user settings', async () => {
    const dir = tempProject({ 'target.txt': 'alpha\n' });
    const settings = path.join(tempProject({ 'settings.json': '{"alpha":1}\n' }), 'settings.json');
    const result = await swapDuringApproval(
      dir,
      ['Edit', { file_path: 'target.txt', old_string: 'alpha', new_string: 'beta' }],
      () => {
        fs.rmSync(path.join(dir, 'target.txt'));
        fs.symlinkSync(settings, path.join(dir, 'target.txt'));
      },
    );
    expect(result.isError).toBe(true);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{"alpha":1}\n');
  });

  it('without a swap, the approved write and edit go through (also through a link that stays put)', async () => {
    const dir = tempProject({ 'real.txt': 'alpha\n' });
    fs.symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    const edit = await swapDuringApproval(
      dir,
      ['Edit', { file_path: 'link.txt', old_string: 'alpha', new_string: 'beta' }],
      () => undefined,
    );
    expect(edit.isError).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'real.txt'), 'utf8')).toBe('beta\n');
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    const write = await swapDuringApproval(
      dir,
      ['Write', { file_path: 'new/file.txt', content: 'hello' }],
      () => undefined,
    );
    expect(write.isError).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'new/file.txt'), 'utf8')).toBe('hello');
  });
});

describe('Read reads the file whose read was allowed', () => {
  it('a file swapped for a link to a secret outside the workspace is not read', async () => {
    const dir = tempProject({ 'notes.txt': 'public\n' });
    const secret = path.join(tempProject({ id_rsa: 'PRIVATE-KEY\n' }), 'id_rsa');
    // An ask rule makes the approver (our swapper) run between the decision and the read.
    const { result } = await scriptedRun(
      [[toolUse('t1', 'Read', { file_path: 'notes.txt' })], [text('done')]],
      {
        projectDir: dir,
        tools: builtinTools(),
        transcript: false,
        permissions: { rules: { ask: ['Read(./notes.txt)'] } },
        approver: callbackApprover(() => {
          fs.rmSync(path.join(dir, 'notes.txt'));
          fs.symlinkSync(secret, path.join(dir, 'notes.txt'));
          return 'allow';
        }),
      },
    );
    const read = toolResults(result.messages)[0]!;
    expect(read.isError).toBe(true);
    expect(read.content).not.toContain('PRIVATE-KEY');
  });
});
