import { z } from 'zod';
import { defineTool, ToolFailure } from '../define-tool.js';
import { approvedDestination, readNoFollow, writeFileAtomic } from './no-follow-io.js';
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
 * `filePath` is {@link displayPath}. The write is atomic and goes to the real path the permission
 * was decided for, never through a symlink swapped in since ({@link writeFileAtomic}).
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
    const destination = approvedDestination(absolutePath, context);
    const originalFile = await readExisting(destination);
    await writeOrFail(destination, input.content);
    const filePath = context.spelledPath ?? displayPath(absolutePath, context.cwd);
    if (originalFile === null) {
      return {
        type: 'create',
        filePath,
        content: input.content,
        structuredPatch: [],
        originalFile: null,
        userModified: false,
      };
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
    return await readNoFollow(absolutePath);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    if (isErrno(error, 'EISDIR'))
      throw new ToolFailure(`EISDIR: illegal operation on a directory, write '${absolutePath}'`);
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

export { writeFileAtomic } from './no-follow-io.js';
