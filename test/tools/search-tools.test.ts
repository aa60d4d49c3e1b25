import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnyTool, type ToolContext, ToolFailure, Workspace } from '../../src/index.js';
import { Glob } from '../../src/tools/builtin/glob.js';
import { Grep } from '../../src/tools/builtin/grep.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-search-tools-')));
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

/** Writes `files` in order, each one second newer than the previous (mtime), like files written one after another. */
function writeFiles(files: Record<string, string>): void {
  const base = Date.now() / 1000 - 3600;
  Object.entries(files).forEach(([name, content], index) => {
    const target = path.join(dir, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    fs.utimesSync(target, base + index, base + index);
  });
}

/** Runs one call as the loop does: schema → normalizeInput → validateInput → (permission) → validateContent → handler → render. */
async function call(tool: AnyTool, raw: Record<string, unknown>, context = contextFor()) {
  const parsed = tool.inputSchema.parse(raw) as Record<string, unknown>;
  const input = tool.normalizeInput
    ? (tool.normalizeInput(parsed, context) as Record<string, unknown>)
    : parsed;
  const validationError =
    (tool.validateInput ? await tool.validateInput(input, context) : undefined) ??
    (tool.validateContent ? await tool.validateContent(input, context) : undefined);
  if (validationError !== undefined)
    return { input, validationError, output: undefined as unknown, text: undefined };
  const output: unknown = await tool.handler(input, context);
  return { input, validationError, output, text: tool.render(output, input) };
}

/** The workspace of scenario tools-glob-grep, files written in the scenario's order. */
const TRACE_FILES = {
  'src/a.ts': 'export const hello = 1;\n',
  'src/b.ts': 'export const world = 2; // hello\n',
  'README.md': 'hello readme\n',
};

describe('Glob and Grep replay trace tools-glob-grep', () => {
  beforeEach(() => writeFiles(TRACE_FILES));

  it('Glob **/*.ts', async () => {
    const result = await call(Glob, { pattern: '**/*.ts' });
    expect(result.input).toStrictEqual({ pattern: '**/*.ts' });
    const output = result.output as Record<string, unknown>;
    expect(Object.keys(output)).toEqual([
      'filenames',
      'durationMs',
      'numFiles',
      'truncated',
      'totalMatches',
      'countIsComplete',
    ]);
    expect(typeof output['durationMs']).toBe('number');
    expect({ ...output, durationMs: '<ms>' }).toStrictEqual({
      filenames: ['src/a.ts', 'src/b.ts'],
      durationMs: '<ms>',
      numFiles: 2,
      truncated: false,
      totalMatches: 2,
      countIsComplete: true,
    });
    expect(result.text).toBe('src/a.ts\nsrc/b.ts');
  });

  it('Grep content mode with -n', async () => {
    const result = await call(Grep, { pattern: 'hello', output_mode: 'content', '-n': true });
    expect(result.input).toStrictEqual({ pattern: 'hello', output_mode: 'content', '-n': true });
    expect(result.output).toStrictEqual({
      mode: 'content',
      numFiles: 0,
      filenames: [],
      content:
        'README.md:1:hello readme\nsrc/a.ts:1:export const hello = 1;\nsrc/b.ts:1:export const world = 2; // hello',
      numLines: 3,
      totalLines: 3,
    });
    expect(Object.keys(result.output as object)).toEqual([
      'mode',
      'numFiles',
      'filenames',
      'content',
      'numLines',
      'totalLines',
    ]);
    expect(result.text).toBe(
      'README.md:1:hello readme\nsrc/a.ts:1:export const hello = 1;\nsrc/b.ts:1:export const world = 2; // hello',
    );
  });

  it('Grep files_with_matches with a glob: newest first', async () => {
    const result = await call(Grep, { pattern: 'hello', glob: '*.ts' });
    expect(result.output).toStrictEqual({
      mode: 'files_with_matches',
      filenames: ['src/b.ts', 'src/a.ts'],
      numFiles: 2,
      totalFiles: 2,
    });
    expect(Object.keys(result.output as object)).toEqual(['mode', 'filenames', 'numFiles', 'totalFiles']);
    expect(result.text).toBe('Found 2 files\nsrc/b.ts\nsrc/a.ts');
  });

  it('Grep count mode', async () => {
    const result = await call(Grep, { pattern: 'hello', output_mode: 'count' });
    expect(result.output).toStrictEqual({
      mode: 'count',
      numFiles: 3,
      filenames: [],
      content: 'README.md:1\nsrc/a.ts:1\nsrc/b.ts:1',
      numMatches: 3,
    });
    expect(Object.keys(result.output as object)).toEqual([
      'mode',
      'numFiles',
      'filenames',
      'content',
      'numMatches',
    ]);
    expect(result.text).toBe(
      'README.md:1\nsrc/a.ts:1\nsrc/b.ts:1\n\nFound 3 total occurrences across 3 files.',
    );
  });
});

describe('Glob', () => {
  it('orders by modification time, oldest first, not by name', async () => {
    writeFiles({ 'z.txt': '', 'm.txt': '', 'a.txt': '' });
    expect((await call(Glob, { pattern: '*.txt' })).text).toBe('z.txt\nm.txt\na.txt');
  });

  it('stops at 100 files and says so', async () => {
    writeFiles(
      Object.fromEntries(
        Array.from({ length: 105 }, (_, index) => [`many/f${String(index).padStart(3, '0')}.log`, '']),
      ),
    );
    const result = await call(Glob, { pattern: 'many/*.log' });
    const output = result.output as {
      numFiles: number;
      totalMatches: number;
      truncated: boolean;
      filenames: string[];
    };
    expect(output.numFiles).toBe(100);
    expect(output.filenames).toHaveLength(100);
    expect(output.filenames[0]).toBe('many/f000.log');
    expect(output.totalMatches).toBe(105);
    expect(output.truncated).toBe(true);
    expect(result.text?.split('\n').at(-1)).toBe(
      '(Results are truncated. Consider using a more specific path or pattern.)',
    );
  });

  it('finds dotfiles, skips .git and node_modules unless named, and matches files only', async () => {
    writeFiles({ '.env.ts': '', 'src/x.ts': '', 'node_modules/pkg/i.ts': '', '.git/hooks/h.ts': '' });
    expect((await call(Glob, { pattern: '**/*.ts' })).text).toBe('.env.ts\nsrc/x.ts');
    expect((await call(Glob, { pattern: 'node_modules/**/*.ts' })).text).toBe('node_modules/pkg/i.ts');
    expect((await call(Glob, { pattern: 'src' })).text).toBe('No files found');
  });

  it('searches a given path (made absolute before hooks) and lists results relative to the cwd', async () => {
    writeFiles({ 'tree/older.txt': '', 'tree/newer.txt': '', 'tree/sub/deep.txt': '' });
    const result = await call(Glob, { pattern: '**/*.txt', path: 'tree' });
    expect(result.input).toStrictEqual({ pattern: '**/*.txt', path: path.join(dir, 'tree') });
    expect(result.text).toBe('tree/older.txt\ntree/newer.txt\ntree/sub/deep.txt');
    expect(Glob.filePaths?.(result.input as { pattern: string; path: string }, { cwd: dir })).toEqual([
      path.join(dir, 'tree'),
    ]);
  });

  it('refuses a path that is missing or not a directory', async () => {
    writeFiles({ 'file.txt': '' });
    expect((await call(Glob, { pattern: '*', path: 'nowhere' })).validationError).toBe(
      `Directory does not exist: ${path.join(dir, 'nowhere')}. Note: your current working directory is ${dir}.`,
    );
    expect((await call(Glob, { pattern: '*', path: 'file.txt' })).validationError).toBe(
      `Path is not a directory: ${path.join(dir, 'file.txt')}`,
    );
  });
});

describe('Grep', () => {
  beforeEach(() =>
    writeFiles({
      'src/app.ts': 'import x from "y";\nconst Value = 1;\nfunction run() {\n  return value;\n}\n',
      'src/util.py': 'value = 2\n',
      'docs/notes.md': 'nothing here\n',
      'node_modules/dep/index.ts': 'value\n',
      'assets/logo.bin': Buffer.from([0x00, 0x76, 0x61, 0x6c, 0x75, 0x65]).toString('latin1'),
    }),
  );

  it('lists matching files by default, skipping node_modules and binary files', async () => {
    const result = await call(Grep, { pattern: 'value' });
    expect(result.text).toBe('Found 2 files\nsrc/util.py\nsrc/app.ts');
  });

  it('honours -i, type and -n false', async () => {
    expect(
      (await call(Grep, { pattern: 'value', '-i': true, type: 'ts', output_mode: 'content', '-n': false }))
        .text,
    ).toBe('src/app.ts:const Value = 1;\nsrc/app.ts:  return value;');
    expect((await call(Grep, { pattern: '(?i)VALUE', type: 'py', output_mode: 'content' })).text).toBe(
      'src/util.py:1:value = 2',
    );
  });

  it('shows context lines with - and separates groups with --', async () => {
    const result = await call(Grep, {
      pattern: '^import|return',
      path: 'src/app.ts',
      output_mode: 'content',
      '-A': 0,
      '-B': 1,
    });
    // A single file is searched without a file-name prefix, like ripgrep.
    expect(result.text).toBe('1:import x from "y";\n--\n3-function run() {\n4:  return value;');
  });

  it('pages with head_limit and offset and says so', async () => {
    const result = await call(Grep, {
      pattern: '.',
      output_mode: 'content',
      type: 'ts',
      head_limit: 2,
      offset: 1,
    });
    expect(result.output).toMatchObject({ numLines: 2, totalLines: 5, appliedLimit: 2, appliedOffset: 1 });
    expect(result.text).toBe(
      'src/app.ts:2:const Value = 1;\nsrc/app.ts:3:function run() {\n\n[Showing results with pagination = limit: 2, offset: 1]',
    );
  });

  it('matches across lines in multiline mode', async () => {
    const result = await call(Grep, {
      pattern: 'run\\(\\) \\{\\s+return',
      multiline: true,
      output_mode: 'content',
    });
    expect(result.text).toBe('src/app.ts:3:function run() {\nsrc/app.ts:4:  return value;');
  });

  it('says when nothing matched, in each mode', async () => {
    expect((await call(Grep, { pattern: 'absent-text' })).text).toBe('No files found');
    expect((await call(Grep, { pattern: 'absent-text', output_mode: 'content' })).text).toBe(
      'No matches found',
    );
    expect((await call(Grep, { pattern: 'absent-text', output_mode: 'count' })).text).toBe(
      'No matches found\n\nFound 0 total occurrences across 0 files.',
    );
  });

  it('fails on an invalid regex or an unknown type', async () => {
    await expect(call(Grep, { pattern: '(unclosed' })).rejects.toBeInstanceOf(ToolFailure);
    await expect(call(Grep, { pattern: 'x', type: 'no-such-type' })).rejects.toThrow(
      'unrecognized file type: no-such-type',
    );
  });

  it('refuses a path that does not exist (after the permission decision)', async () => {
    expect((await call(Grep, { pattern: 'x', path: 'missing' })).validationError).toBe(
      `Path does not exist: ${path.join(dir, 'missing')}. Note: your current working directory is ${dir}.`,
    );
  });
});
