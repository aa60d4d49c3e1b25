import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Issue 14 item 12: Read of a FIFO in the workspace hung the run forever. Read reads regular files
// only; anything else is a tool error result, and no kind of file can make it wait.

async function readAll(
  projectDir: string,
  paths: readonly string[],
  mode: 'default' | 'bypassPermissions' = 'default',
) {
  const { result } = await scriptedRun(
    [[...paths.map((file, index) => toolUse(`toolu_${index}`, 'Read', { file_path: file }))], [text('done')]],
    {
      projectDir,
      tools: builtinTools(),
      permissions: { mode },
      transcript: false,
    },
  );
  expect(result.terminalReason).toBe('completed');
  return toolResults(result.messages).map((message) => ({
    isError: message.isError,
    content: message.content,
  }));
}

describe('Read of what is not a regular file', () => {
  it('refuses a FIFO (no writer, so opening it would block forever) with a clear error result', async () => {
    const projectDir = tempProject();
    execFileSync('mkfifo', [path.join(projectDir, 'pipe')]);
    fs.symlinkSync('pipe', path.join(projectDir, 'link-to-pipe'));
    expect(await readAll(projectDir, ['pipe', 'link-to-pipe'])).toEqual([
      {
        isError: true,
        content: `Cannot read '${projectDir}/pipe': it is a named pipe (FIFO), not a regular file. Read only reads regular files.`,
      },
      // Read reads the real path its permission was decided for, so the link is named by its target.
      {
        isError: true,
        content: `Cannot read '${projectDir}/pipe': it is a named pipe (FIFO), not a regular file. Read only reads regular files.`,
      },
    ]);
  });

  it('refuses a socket and a character device', async () => {
    const projectDir = tempProject();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(projectDir, 'sock'), resolve));
    try {
      const results = await readAll(projectDir, ['sock', '/dev/zero'], 'bypassPermissions');
      expect(results).toEqual([
        { isError: true, content: expect.stringContaining('it is a socket, not a regular file') },
        {
          isError: true,
          content: expect.stringContaining("'/dev/zero': it is a character device, not a regular file"),
        },
      ]);
    } finally {
      server.close();
    }
  });

  it('still reads a regular file, also through a symlink', async () => {
    const projectDir = tempProject({ 'notes.txt': 'alpha\nbeta' });
    fs.symlinkSync('notes.txt', path.join(projectDir, 'link.txt'));
    expect(await readAll(projectDir, ['notes.txt', 'link.txt'])).toEqual([
      { isError: false, content: '1\talpha\n2\tbeta' },
      { isError: false, content: '1\talpha\n2\tbeta' },
    ]);
  });
});

describe('Write over what is not a regular file', () => {
  // Found when a run as root replaced /dev/null with a regular file: Write renames a new file over
  // its destination, which must never swap out a device, FIFO or socket.
  it('refuses to replace a FIFO (it stays a FIFO) and still writes a regular file', async () => {
    const projectDir = tempProject();
    execFileSync('mkfifo', [path.join(projectDir, 'pipe')]);
    const { result } = await scriptedRun(
      [
        [
          toolUse('toolu_1', 'Write', { file_path: 'pipe', content: 'x' }),
          toolUse('toolu_2', 'Write', { file_path: 'plain.txt', content: 'ok' }),
        ],
        [text('done')],
      ],
      {
        projectDir,
        tools: builtinTools(),
        permissions: { mode: 'bypassPermissions' },
        transcript: false,
      },
    );
    const [fifo, plain] = toolResults(result.messages);
    expect(fifo?.isError).toBe(true);
    expect(String(fifo?.content)).toContain('not a regular file');
    expect(fs.lstatSync(path.join(projectDir, 'pipe')).isFIFO()).toBe(true);
    expect(plain?.isError).toBe(false);
    expect(fs.readFileSync(path.join(projectDir, 'plain.txt'), 'utf8')).toBe('ok');
  });
});
