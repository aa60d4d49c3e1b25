import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnyTool, builtinTools, type ToolContext, ToolFailure, Workspace } from '../../src/index.js';
import { Edit } from '../../src/tools/builtin/edit.js';
import { displayPath, Read, resolveToolPath } from '../../src/tools/builtin/read.js';
import { computeStructuredPatch } from '../../src/tools/builtin/structured-patch.js';
import { Write, writeFileAtomic } from '../../src/tools/builtin/write.js';

const NOTE = ' (file state is current in your context — no need to Read it back)';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-file-tools-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function contextFor(cwd = dir): ToolContext {
  return {
    cwd,
    projectDir: dir,
    workspace: new Workspace(dir),
    signal: new AbortController().signal,
    env: {},
    setCwd: () => undefined,
  };
}

type Call = { input: Record<string, unknown>; validationError?: string; output?: unknown; text?: string };

/** Runs one call as the loop does: schema → normalizeInput → validateInput → (permission) → validateContent → handler → render. */
async function call(tool: AnyTool, raw: Record<string, unknown>, context = contextFor()): Promise<Call> {
  const parsed = tool.inputSchema.parse(raw) as Record<string, unknown>;
  const input = tool.normalizeInput
    ? (tool.normalizeInput(parsed, context) as Record<string, unknown>)
    : parsed;
  const validationError =
    (tool.validateInput ? await tool.validateInput(input, context) : undefined) ??
    (tool.validateContent ? await tool.validateContent(input, context) : undefined);
  if (validationError !== undefined) return { input, validationError };
  const output: unknown = await tool.handler(input, context);
  return { input, output, text: tool.render(output, input) };
}

const file = (name: string) => path.join(dir, name);
const read = (name: string) => fs.readFileSync(file(name), 'utf8');

describe('Write / Read / Edit replay trace tools-read-write-edit', () => {
  it('matches every tool_input, tool_response and model-visible text of the trace', async () => {
    fs.writeFileSync(file('existing.txt'), 'old content\n');

    const write = await call(Write, { file_path: 'new.txt', content: 'line1\nline2\nline2\n' });
    expect(write.input).toStrictEqual({ file_path: file('new.txt'), content: 'line1\nline2\nline2\n' });
    expect(write.output).toStrictEqual({
      type: 'create',
      filePath: 'new.txt',
      content: 'line1\nline2\nline2\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    expect(Object.keys(write.output as object)).toEqual([
      'type',
      'filePath',
      'content',
      'structuredPatch',
      'originalFile',
      'userModified',
    ]);
    expect(write.text).toBe(`File created successfully at: new.txt${NOTE}`);

    const readAll = await call(Read, { file_path: 'new.txt' });
    expect(readAll.input).toStrictEqual({ file_path: file('new.txt') });
    expect(readAll.output).toStrictEqual({
      type: 'text',
      file: {
        filePath: 'new.txt',
        content: 'line1\nline2\nline2\n',
        numLines: 4,
        startLine: 1,
        totalLines: 4,
      },
    });
    expect(readAll.text).toBe('1\tline1\n2\tline2\n3\tline2\n4\t');

    const editOne = await call(Edit, { file_path: 'new.txt', old_string: 'line1', new_string: 'LINE1' });
    expect(editOne.input).toStrictEqual({
      file_path: file('new.txt'),
      old_string: 'line1',
      new_string: 'LINE1',
      replace_all: false,
    });
    expect(Object.keys(editOne.input)).toEqual(['file_path', 'old_string', 'new_string', 'replace_all']);
    expect(editOne.output).toStrictEqual({
      filePath: 'new.txt',
      oldString: 'line1',
      newString: 'LINE1',
      originalFile: 'line1\nline2\nline2\n',
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: 3,
          newStart: 1,
          newLines: 3,
          lines: ['-line1', '+LINE1', ' line2', ' line2'],
        },
      ],
      userModified: false,
      replaceAll: false,
    });
    expect(Object.keys(editOne.output as object)).toEqual([
      'filePath',
      'oldString',
      'newString',
      'originalFile',
      'structuredPatch',
      'userModified',
      'replaceAll',
    ]);
    expect(editOne.text).toBe(`The file new.txt has been updated successfully.${NOTE}`);

    const editAll = await call(Edit, {
      file_path: 'new.txt',
      old_string: 'line2',
      new_string: 'LINE2',
      replace_all: true,
    });
    expect(editAll.output).toStrictEqual({
      filePath: 'new.txt',
      oldString: 'line2',
      newString: 'LINE2',
      originalFile: 'LINE1\nline2\nline2\n',
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: 3,
          newStart: 1,
          newLines: 3,
          lines: [' LINE1', '-line2', '-line2', '+LINE2', '+LINE2'],
        },
      ],
      userModified: false,
      replaceAll: true,
    });
    expect(editAll.text).toBe(
      `The file new.txt has been updated. All occurrences were successfully replaced.${NOTE}`,
    );

    const readExisting = await call(Read, { file_path: 'existing.txt' });
    expect(readExisting.output).toStrictEqual({
      type: 'text',
      file: { filePath: 'existing.txt', content: 'old content\n', numLines: 2, startLine: 1, totalLines: 2 },
    });
    expect(readExisting.text).toBe('1\told content\n2\t');

    const overwrite = await call(Write, { file_path: 'existing.txt', content: 'new content\n' });
    expect(overwrite.output).toStrictEqual({
      type: 'update',
      filePath: 'existing.txt',
      content: 'new content\n',
      structuredPatch: [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-old content', '+new content'] },
      ],
      originalFile: 'old content\n',
      userModified: false,
    });
    expect(Object.keys(overwrite.output as object)).toEqual([
      'type',
      'filePath',
      'content',
      'structuredPatch',
      'originalFile',
      'userModified',
    ]);
    expect(overwrite.text).toBe(`The file existing.txt has been updated successfully.${NOTE}`);

    const readSlice = await call(Read, { file_path: 'new.txt', offset: 2, limit: 1 });
    expect(readSlice.input).toStrictEqual({ file_path: file('new.txt'), offset: 2, limit: 1 });
    expect(readSlice.output).toStrictEqual({
      type: 'text',
      file: { filePath: 'new.txt', content: 'LINE2', numLines: 1, startLine: 2, totalLines: 4 },
    });
    expect(readSlice.text).toBe('2\tLINE2');

    expect(read('new.txt')).toBe('LINE1\nLINE2\nLINE2\n');
    expect(read('existing.txt')).toBe('new content\n');
  });
});

describe('paths', () => {
  it('resolves relative and ~ paths, and shows paths relative to the cwd when inside it', () => {
    expect(resolveToolPath('a/../b.txt', '/ws')).toBe('/ws/b.txt');
    expect(resolveToolPath('/abs.txt', '/ws')).toBe('/abs.txt');
    expect(resolveToolPath('~/x', '/ws')).toBe(path.join(os.homedir(), 'x'));
    expect(displayPath('/ws/sub/a.txt', '/ws')).toBe('sub/a.txt');
    expect(displayPath('/elsewhere/a.txt', '/ws')).toBe('/elsewhere/a.txt');
  });

  it('resolves against the session cwd, not the project dir', async () => {
    fs.mkdirSync(file('sub'));
    fs.writeFileSync(file('sub/a.txt'), 'in sub\n');
    const result = await call(Read, { file_path: 'a.txt' }, contextFor(file('sub')));
    expect(result.input).toStrictEqual({ file_path: file('sub/a.txt') });
    expect((result.output as { file: { filePath: string } }).file.filePath).toBe('a.txt');
  });

  it('declares the absolute path for the workspace boundary', () => {
    expect(Read.filePaths?.({ file_path: '/x/y' }, { cwd: dir })).toEqual(['/x/y']);
    expect(Write.filePaths?.({ file_path: '/x/y', content: '' }, { cwd: dir })).toEqual(['/x/y']);
    expect(Edit.filePaths?.({ file_path: '/x/y', old_string: 'a', new_string: 'b' }, { cwd: dir })).toEqual([
      '/x/y',
    ]);
  });
});

describe('Read', () => {
  it('fails like Claude Code for a missing file (a ToolFailure, so PostToolUseFailure fires)', async () => {
    const failure = await call(Read, { file_path: 'missing.txt' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolFailure);
    expect((failure as Error).message).toBe(
      `File does not exist. Note: your current working directory is ${dir}.`,
    );
  });

  it('warns instead of numbering an empty file', async () => {
    fs.writeFileSync(file('empty.txt'), '');
    const result = await call(Read, { file_path: 'empty.txt' });
    expect(result.output).toStrictEqual({
      type: 'text',
      file: { filePath: 'empty.txt', content: '', numLines: 1, startLine: 1, totalLines: 1 },
    });
    expect(result.text).toBe(
      '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>',
    );
  });

  it('warns when the offset is past the end, giving the line count', async () => {
    fs.writeFileSync(file('short.txt'), 'X\n');
    const result = await call(Read, { file_path: 'short.txt', offset: 9 });
    expect(result.text).toBe(
      '<system-reminder>Warning: the file exists but is shorter than the provided offset (9). The file has 2 lines.</system-reminder>',
    );
  });

  it('reads at most 2000 lines by default', async () => {
    fs.writeFileSync(
      file('long.txt'),
      Array.from({ length: 2500 }, (_, index) => `l${index + 1}`).join('\n'),
    );
    const result = await call(Read, { file_path: 'long.txt' });
    const { file: info } = result.output as { file: { numLines: number; totalLines: number } };
    expect(info.numLines).toBe(2000);
    expect(info.totalLines).toBe(2500);
    expect(result.text?.split('\n').at(-1)).toBe('2000\tl2000');
  });

  it('refuses directories, binary files and whole reads of large files', async () => {
    fs.mkdirSync(file('folder'));
    await expect(call(Read, { file_path: 'folder' })).rejects.toThrow(/EISDIR/);
    fs.writeFileSync(file('blob.bin'), Buffer.from([0x50, 0x4b, 0x00, 0x01]));
    await expect(call(Read, { file_path: 'blob.bin' })).rejects.toThrow(
      'This tool cannot read binary files. The file appears to be a binary .bin file.',
    );
    fs.writeFileSync(file('big.txt'), 'x'.repeat(300 * 1024));
    await expect(call(Read, { file_path: 'big.txt' })).rejects.toThrow(
      'exceeds maximum allowed size (256KB)',
    );
  });
});

describe('Write', () => {
  it('creates missing parent directories', async () => {
    const result = await call(Write, { file_path: 'a/b/c.txt', content: 'deep' });
    expect(read('a/b/c.txt')).toBe('deep');
    expect(result.text).toBe(`File created successfully at: a/b/c.txt${NOTE}`);
  });

  it('leaves no temporary files behind and keeps the file mode', async () => {
    fs.writeFileSync(file('script.sh'), 'echo old\n');
    fs.chmodSync(file('script.sh'), 0o750);
    await call(Write, { file_path: 'script.sh', content: 'echo new\n' });
    await call(Write, { file_path: 'other.txt', content: 'x' });
    expect(fs.readdirSync(dir).sort()).toEqual(['other.txt', 'script.sh']);
    expect(fs.statSync(file('script.sh')).mode & 0o777).toBe(0o750);
    expect(read('script.sh')).toBe('echo new\n');
  });

  it('writes through a symlink, leaving the link in place', async () => {
    fs.writeFileSync(file('target.txt'), 'before');
    fs.symlinkSync(file('target.txt'), file('link.txt'));
    await call(Write, { file_path: 'link.txt', content: 'after' });
    expect(fs.lstatSync(file('link.txt')).isSymbolicLink()).toBe(true);
    expect(read('target.txt')).toBe('after');
  });

  it('removes its temporary file and keeps the target when the final rename fails', async () => {
    fs.mkdirSync(file('occupied'));
    fs.writeFileSync(file('occupied/keep.txt'), 'kept');
    await expect(writeFileAtomic(file('occupied'), 'would clobber')).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['occupied']);
    expect(read('occupied/keep.txt')).toBe('kept');
  });

  it('fails with a ToolFailure when the path is a directory', async () => {
    fs.mkdirSync(file('folder'));
    await expect(call(Write, { file_path: 'folder', content: 'x' })).rejects.toBeInstanceOf(ToolFailure);
  });
});

describe('Edit validation (after the permission decision, shown as <tool_use_error>)', () => {
  beforeEach(() => {
    fs.writeFileSync(file('notes.txt'), 'alpha\nbeta\nalpha\n');
  });

  it('reports a missing old_string exactly as Claude Code (trace post-tool-use-failure)', async () => {
    const result = await call(Edit, { file_path: 'notes.txt', old_string: 'not-there', new_string: 'x' });
    expect(result.validationError).toBe('String to replace not found in file.\nString: not-there');
    expect(read('notes.txt')).toBe('alpha\nbeta\nalpha\n');
  });

  it('refuses an ambiguous old_string without replace_all', async () => {
    const result = await call(Edit, { file_path: 'notes.txt', old_string: 'alpha', new_string: 'A' });
    expect(result.validationError).toBe(
      'Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. ' +
        'To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: alpha',
    );
    expect(read('notes.txt')).toBe('alpha\nbeta\nalpha\n');
  });

  it('refuses identical strings and missing files', async () => {
    expect(
      (await call(Edit, { file_path: 'notes.txt', old_string: 'beta', new_string: 'beta' })).validationError,
    ).toBe('No changes to make: old_string and new_string are exactly the same.');
    expect(
      (await call(Edit, { file_path: 'nope.txt', old_string: 'a', new_string: 'b' })).validationError,
    ).toBe(`File does not exist. Note: your current working directory is ${dir}.`);
  });

  it('creates a file from an empty old_string, but not over an existing one', async () => {
    const created = await call(Edit, { file_path: 'fresh.txt', old_string: '', new_string: 'hello\n' });
    expect(read('fresh.txt')).toBe('hello\n');
    expect((created.output as { originalFile: string }).originalFile).toBe('');
    expect(
      (await call(Edit, { file_path: 'notes.txt', old_string: '', new_string: 'x' })).validationError,
    ).toBe('Cannot create new file - file already exists.');
  });

  it('re-checks in the handler: a file changed after validation fails instead of editing blindly', async () => {
    const context = contextFor();
    const input = Edit.normalizeInput?.(
      { file_path: 'notes.txt', old_string: 'beta', new_string: 'B' },
      context,
    );
    expect(input).toBeDefined();
    if (input === undefined) return;
    expect(await Edit.validateInput?.(input, context)).toBeUndefined();
    fs.writeFileSync(file('notes.txt'), 'changed by a hook\n');
    await expect(Edit.handler(input, context)).rejects.toThrow(
      'String to replace not found in file.\nString: beta',
    );
  });
});

describe('Edit behaviour', () => {
  it('replaces text literally ($& and $1 are not patterns)', async () => {
    fs.writeFileSync(file('a.txt'), 'price: X\n');
    await call(Edit, { file_path: 'a.txt', old_string: 'X', new_string: '$& $1 $$' });
    expect(read('a.txt')).toBe('price: $& $1 $$\n');
  });

  it('deleting a whole line removes its newline too', async () => {
    fs.writeFileSync(file('a.txt'), 'keep\ndrop me\nkeep too\n');
    await call(Edit, { file_path: 'a.txt', old_string: 'drop me', new_string: '' });
    expect(read('a.txt')).toBe('keep\nkeep too\n');
  });

  it('matches CRLF files with LF strings and writes CRLF back', async () => {
    fs.writeFileSync(file('win.txt'), 'one\r\ntwo\r\nthree\r\n');
    const result = await call(Edit, { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'ONE\nTWO' });
    expect(result.validationError).toBeUndefined();
    expect(read('win.txt')).toBe('ONE\r\nTWO\r\nthree\r\n');
    expect((result.output as { originalFile: string }).originalFile).toBe('one\ntwo\nthree\n');
  });

  it('leaves no temporary files behind', async () => {
    fs.writeFileSync(file('a.txt'), 'x\n');
    await call(Edit, { file_path: 'a.txt', old_string: 'x', new_string: 'y' });
    expect(fs.readdirSync(dir)).toEqual(['a.txt']);
  });
});

describe('computeStructuredPatch', () => {
  it('gives [] for identical text and whole hunks otherwise', () => {
    expect(computeStructuredPatch('same\n', 'same\n')).toEqual([]);
    expect(computeStructuredPatch('alpha\nBETA\nalpha\n', 'replaced\n')).toEqual([
      {
        oldStart: 1,
        oldLines: 3,
        newStart: 1,
        newLines: 1,
        lines: ['-alpha', '-BETA', '-alpha', '+replaced'],
      },
    ]);
  });

  it('keeps 3 lines of context and splits distant changes into separate hunks', () => {
    const before = Array.from({ length: 20 }, (_, index) => `l${index + 1}`).join('\n') + '\n';
    const after = before.replace('l2\n', 'L2\n').replace('l19\n', 'L19\n');
    const hunks = computeStructuredPatch(before, after);
    expect(hunks.map(({ oldStart, oldLines }) => [oldStart, oldLines])).toEqual([
      [1, 5],
      [16, 5],
    ]);
    expect(hunks[0]?.lines).toEqual(
      ['l1', '-l2', '+L2', 'l3', 'l4', 'l5'].map((line) => (/^[-+]/.test(line) ? line : ` ${line}`)),
    );
  });
});

describe('builtinTools', () => {
  it('lists the built-in tools with Claude Code names, kinds and read-only flags', () => {
    expect(builtinTools().map((tool) => [tool.name, tool.kind, tool.readOnly])).toEqual([
      ['Bash', 'bash', false],
      ['Read', 'read', true],
      ['Write', 'edit', false],
      ['Edit', 'edit', false],
      ['Glob', 'read', true],
      ['Grep', 'read', true],
      ['TodoWrite', 'other', true],
      ['TaskStop', 'other', true],
      ['WebFetch', 'other', false],
    ]);
  });

  it('validates each tool_response against its own outputSchema', async () => {
    fs.writeFileSync(file('a.txt'), 'x\n');
    const read = await call(Read, { file_path: 'a.txt' });
    expect(Read.outputSchema?.safeParse(read.output).success).toBe(true);
    expect(Read.outputSchema?.safeParse('a plain string').success).toBe(false);
  });
});
