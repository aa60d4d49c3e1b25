import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../define-tool.js';
import { displayPath, errorMessage, isErrno, resolveToolPath } from './read.js';
import { computeStructuredPatch, patchHunkSchema } from './structured-patch.js';

/** Appended to every successful Write/Edit result, as Claude Code does (the dash is U+2014). */
export const FILE_STATE_NOTE = ' (file state is current in your context — no need to Read it back)';

const writeInput = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to write (must be absolute, not relative)'),
  content: z.string().describe('The content to write to the file'),
});

/** Write's `tool_response` (Claude Code shape): `create` (no original, empty patch) or `update`. */
export const writeOutputSchema = z.object({
  type: z.enum(['create', 'update']),
  filePath: z.string(),
  content: z.string(),
  structuredPatch: z.array(patchHunkSchema),
  originalFile: z.string().nullable(),
  userModified: z.boolean(),
});

/** {@link writeOutputSchema} as a type. */
export type WriteOutput = z.infer<typeof writeOutputSchema>;

/**
 * `Write`: creates or overwrites a file with `content`, creating parent directories.
 *
 * Input `{file_path, content}`; `normalizeInput` makes `file_path` absolute against the cwd.
 * `tool_response` for a new file: `{type:"create", filePath, content, structuredPatch: [],
 * originalFile: null, userModified: false}`; for an existing one `type:"update"`, the previous text
 * in `originalFile` and its diff in `structuredPatch` (see {@link computeStructuredPatch}).
 * `filePath` is {@link displayPath}. The write is atomic ({@link writeFileAtomic}).
 * Throws ToolFailure when the path is a directory or the filesystem refuses the write.
 */
export const Write = defineTool({
  name: 'Write',
  description: [
    'Writes a file to the local filesystem, replacing it if it exists.',
    '- file_path should be an absolute path; missing parent directories are created.',
    '- Prefer Edit for changing part of an existing file; use Write for new files or full rewrites.',
    '- Read an existing file before overwriting it so no content is lost unintentionally.',
  ].join('\n'),
  inputSchema: writeInput,
  outputSchema: writeOutputSchema,
  kind: 'edit',
  readOnly: false,
  normalizeInput: (input, { cwd }) => ({ ...input, file_path: resolveToolPath(input.file_path, cwd) }),
  filePaths: (input) => [input.file_path],
  handler: async (input, context): Promise<WriteOutput> => {
    const absolutePath = resolveToolPath(input.file_path, context.cwd);
    const originalFile = await readExisting(absolutePath);
    await writeOrFail(absolutePath, input.content);
    const filePath = displayPath(absolutePath, context.cwd);
    if (originalFile === null) {
      return { type: 'create', filePath, content: input.content, structuredPatch: [], originalFile: null, userModified: false };
    }
    return {
      type: 'update',
      filePath,
      content: input.content,
      structuredPatch: computeStructuredPatch(originalFile, input.content),
      originalFile,
      userModified: false,
    };
  },
  render: (output) =>
    output.type === 'create'
      ? `File created successfully at: ${output.filePath}${FILE_STATE_NOTE}`
      : `The file ${output.filePath} has been updated successfully.${FILE_STATE_NOTE}`,
});

/** The file's current text, or `null` when it does not exist. Throws ToolFailure for a directory or I/O error. */
async function readExisting(absolutePath: string): Promise<string | null> {
  try {
    return await fs.readFile(absolutePath, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    if (isErrno(error, 'EISDIR')) throw new ToolFailure(`EISDIR: illegal operation on a directory, write '${absolutePath}'`);
    throw new ToolFailure(errorMessage(error));
  }
}

/** {@link writeFileAtomic}, with filesystem errors turned into the model-visible ToolFailure. */
export async function writeOrFail(absolutePath: string, content: string): Promise<void> {
  try {
    await writeFileAtomic(absolutePath, content);
  } catch (error) {
    throw new ToolFailure(errorMessage(error));
  }
}

/**
 * Writes `content` (UTF-8) to `targetPath` so that a crash never leaves a half-written file:
 * the bytes go to a temporary file in the same directory (`.<name>.<pid>.<random>.tmp`), are
 * fsynced, then renamed over the target (rename is atomic within a filesystem).
 *
 * - Missing parent directories are created.
 * - A symlink target is followed: the file it points to is replaced, the link stays a link.
 * - An existing file's permission bits are kept (the temp file is chmod-ed before the rename).
 * - On failure the temp file is removed and the original error (`EACCES`, `ENOSPC`, …) rethrown.
 */
export async function writeFileAtomic(targetPath: string, content: string): Promise<void> {
  const destination = await fs.realpath(targetPath).catch(() => targetPath);
  const directory = path.dirname(destination);
  await fs.mkdir(directory, { recursive: true });
  const existingMode = await fs.stat(destination).then(
    (stats) => stats.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(directory, `.${path.basename(destination)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temporary, 'wx', existingMode ?? 0o666);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open()'s mode is filtered by the umask; an existing file's exact bits are restored explicitly.
    if (existingMode !== undefined) await fs.chmod(temporary, existingMode);
    await fs.rename(temporary, destination);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
