import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../define-tool.js';
import { approvedDestination } from './no-follow-io.js';

/**
 * Resolves a path the model wrote against the session cwd: `~` and `~/…` expand to the home
 * directory, relative paths join `cwd`, and the result is normalized (no `.`/`..` segments).
 * Pure: does not touch the filesystem. Shared by the file tools (Read, Write, Edit, Glob, Grep).
 */
export function resolveToolPath(filePath: string, cwd: string): string {
  if (filePath === '~') return os.homedir();
  if (filePath.startsWith('~/')) return path.join(os.homedir(), filePath.slice(2));
  return path.resolve(cwd, filePath);
}

/**
 * The path as a tool reports it back when the model's spelling is not at hand (a hook's rewrite,
 * Glob and Grep listings): relative to `cwd` when inside it, else absolute. Read, Write and Edit
 * report the model's own spelling instead (`ToolContext.spelledPath`), as Claude Code echoes it
 * (trace tools-read-write-edit: `new.txt` stays `new.txt`; scenario perm-user-widen: an absolute
 * path with `..` stays as written).
 */
export function displayPath(absolutePath: string, cwd: string): string {
  const relative = path.relative(cwd, absolutePath);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return absolutePath;
  return relative;
}

/** The note Claude Code appends to "file not found" errors (Read, Edit), e.g. `… is /ws.` */
export function cwdNote(cwd: string): string {
  return `Note: your current working directory is ${cwd}.`;
}

/** Lines returned when the model gives no `limit` (Claude Code's default). */
export const DEFAULT_READ_LIMIT = 2000;
/** A whole-file read (no offset/limit) of a larger file is refused, as Claude Code does (256 KB). */
export const MAX_WHOLE_FILE_BYTES = 256 * 1024;
/** About 25,000 tokens at ~4 characters per token: a larger slice is refused, asking for offset/limit. */
export const MAX_READ_CHARS = 100_000;

const readInput = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to read'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'The line number to start reading from (1-based). Only provide if the file is too large to read at once',
    ),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The number of lines to read. Only provide if the file is too large to read at once'),
});

/** Read's `tool_response` (Claude Code shape): the selected lines and where they sit in the file. */
export const readOutputSchema = z.object({
  type: z.literal('text'),
  file: z.object({
    filePath: z.string(),
    content: z.string(),
    numLines: z.number(),
    startLine: z.number(),
    totalLines: z.number(),
  }),
});

/** {@link readOutputSchema} as a type. */
export type ReadOutput = z.infer<typeof readOutputSchema>;

/**
 * `Read`: returns lines of a text file, numbered like `cat -n` without padding (`1\tline1`).
 *
 * Input `{file_path, offset?, limit?}`; `normalizeInput` makes `file_path` absolute against the cwd.
 * `offset` is the 1-based first line (0 means 1), `limit` a line count (default 2000). Lines are the
 * file split on `\n`, so `"a\n"` has two lines, the last one empty, and renders `1\ta\n2\t`
 * (trace tools-read-write-edit). `tool_response` is `{type:"text", file:{filePath, content,
 * numLines, startLine, totalLines}}` where `content` is the selected lines joined with `\n`.
 *
 * Errors (ToolFailure, so PostToolUseFailure fires): missing file
 * (`File does not exist. Note: your current working directory is <cwd>.`), a directory, anything
 * else that is not a regular file (a FIFO, a socket, a device: reading one could block forever or
 * never end), a binary file, a whole-file read over 256 KB, or a slice over ~25,000 tokens.
 * An empty file and an offset past the end are not errors: the model gets a `<system-reminder>`.
 */
export const Read = defineTool({
  name: 'Read',
  description: [
    'Reads a file from the local filesystem.',
    '- file_path should be an absolute path; a relative path is resolved against the current working directory.',
    `- By default reads up to ${DEFAULT_READ_LIMIT} lines from the start of the file; use offset (1-based line) and limit for long files.`,
    '- Output is numbered like cat -n: each line is "<line number><tab><content>". The prefix is not part of the file.',
    '- Reads files, not directories (use Bash ls or Glob for those). Binary files are refused.',
  ].join('\n'),
  inputSchema: readInput,
  outputSchema: readOutputSchema,
  kind: 'read',
  readOnly: true,
  normalizeInput: (input, { cwd }) => ({ ...input, file_path: resolveToolPath(input.file_path, cwd) }),
  filePaths: (input) => [input.file_path],
  handler: async (input, context): Promise<ReadOutput> => {
    const absolutePath = resolveToolPath(input.file_path, context.cwd);
    // The file whose read was allowed, not one a symlink swapped in since leads to.
    const text = await readTextFile(
      approvedDestination(absolutePath, context),
      context.cwd,
      input.offset === undefined && input.limit === undefined,
    );
    const lines = text.split('\n');
    const startLine = input.offset === undefined || input.offset === 0 ? 1 : input.offset;
    const selected = lines.slice(startLine - 1, startLine - 1 + (input.limit ?? DEFAULT_READ_LIMIT));
    const content = selected.join('\n');
    if (content.length > MAX_READ_CHARS) {
      throw new ToolFailure(
        `File content (${Math.ceil(content.length / 4)} tokens) exceeds maximum allowed tokens (25000). ` +
          'Please use offset and limit parameters to read specific portions of the file, or use the Grep tool to search for specific content.',
      );
    }
    return {
      type: 'text',
      file: {
        filePath: context.spelledPath ?? displayPath(absolutePath, context.cwd),
        content,
        numLines: selected.length,
        startLine,
        totalLines: lines.length,
      },
    };
  },
  render: renderRead,
});

/** Model-visible text of a Read result: numbered lines, or a reminder for an empty file / short file. */
function renderRead(output: ReadOutput): string {
  const { file } = output;
  if (file.numLines === 0) {
    return (
      `<system-reminder>Warning: the file exists but is shorter than the provided offset (${file.startLine}). ` +
      `The file has ${file.totalLines} lines.</system-reminder>`
    );
  }
  if (file.content === '' && file.totalLines <= 1) {
    return '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';
  }
  return file.content
    .split('\n')
    .map((line, index) => `${file.startLine + index}\t${line}`)
    .join('\n');
}

/**
 * Reads a UTF-8 text file, turning the ways it can fail into model-readable ToolFailures.
 *
 * Only a regular file is read: a FIFO, a socket or a device could block forever (opening a FIFO
 * for reading waits for a writer) or never end (`/dev/zero`). It is checked twice: by stat before
 * opening (a device is never even opened), and on the open descriptor (fstat), the open being
 * non-blocking — so a FIFO swapped in between cannot make Read wait either. The content is then read
 * through that descriptor.
 */
async function readTextFile(absolutePath: string, cwd: string, wholeFile: boolean): Promise<string> {
  let handle: fs.FileHandle;
  try {
    const before = await fs.stat(absolutePath);
    if (!before.isFile() && !before.isDirectory())
      throw new ToolFailure(notRegularFile(absolutePath, fileKind(before)));
    handle = await fs.open(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
      throw new ToolFailure(`File does not exist. ${cwdNote(cwd)}`);
    }
    if (isErrno(error, 'ENXIO')) throw new ToolFailure(notRegularFile(absolutePath, 'a socket'));
    throw new ToolFailure(errorMessage(error));
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory())
      throw new ToolFailure(`EISDIR: illegal operation on a directory, read '${absolutePath}'`);
    if (!stats.isFile()) throw new ToolFailure(notRegularFile(absolutePath, fileKind(stats)));
    if (wholeFile && stats.size > MAX_WHOLE_FILE_BYTES) {
      throw new ToolFailure(
        `File content (${Math.round(stats.size / 1024)}KB) exceeds maximum allowed size (256KB). ` +
          'Please use offset and limit parameters to read specific portions of the file, or use the Grep tool to search for specific content.',
      );
    }
    let buffer: Buffer;
    try {
      buffer = await handle.readFile();
    } catch (error) {
      throw new ToolFailure(errorMessage(error));
    }
    if (looksBinary(buffer)) {
      const extension = path.extname(absolutePath) || '(no extension)';
      throw new ToolFailure(
        `This tool cannot read binary files. The file appears to be a binary ${extension} file. Please use appropriate tools for binary file analysis.`,
      );
    }
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The error text for a path that is not a regular file (hookloop's wording; Claude Code has none). */
function notRegularFile(absolutePath: string, kind: string): string {
  return `Cannot read '${absolutePath}': it is ${kind}, not a regular file. Read only reads regular files.`;
}

function fileKind(stats: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** A NUL byte in the first 8 KB marks a binary file (the heuristic git and ripgrep use). */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}

/** True when `error` is a Node system error with this `code` (ENOENT, EISDIR, …). */
export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** The message of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
