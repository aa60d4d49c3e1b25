import { z } from 'zod';
import { defineTool, ToolFailure } from '../define-tool.js';
import { cwdNote, displayPath, errorMessage, isErrno, resolveToolPath } from './read.js';
import { computeStructuredPatch, patchHunkSchema } from './structured-patch.js';
import { approvedDestination, readNoFollow } from './no-follow-io.js';
import { FILE_STATE_NOTE, writeOrFail } from './write.js';

const editInput = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to modify'),
  old_string: z.string().describe('The text to replace'),
  new_string: z.string().describe('The text to replace it with (must be different from old_string)'),
  replace_all: z.boolean().optional().describe('Replace all occurrences of old_string (default false)'),
});

type EditInput = z.infer<typeof editInput>;

/** Edit's `tool_response` (Claude Code shape, key order as in trace tools-read-write-edit). */
export const editOutputSchema = z.object({
  filePath: z.string(),
  oldString: z.string(),
  newString: z.string(),
  originalFile: z.string(),
  structuredPatch: z.array(patchHunkSchema),
  userModified: z.boolean(),
  replaceAll: z.boolean(),
});

/** {@link editOutputSchema} as a type. */
export type EditOutput = z.infer<typeof editOutputSchema>;

/**
 * `Edit`: replaces an exact string in a file (once, or everywhere with `replace_all`).
 *
 * Input `{file_path, old_string, new_string, replace_all?}`; `normalizeInput` makes `file_path`
 * absolute and adds `replace_all: false` when omitted (hooks see it, as in Claude Code).
 * `validateInput` (before any hook) refuses old_string equal to new_string; `validateContent` (after
 * the permission decision, so a refused call learns nothing about the file; the loop wraps the text
 * in `<tool_use_error>`) refuses, with Claude Code's wording: a missing file, a directory,
 * `String to replace not found in file.\nString: <old_string>`, and an ambiguous old_string without
 * replace_all (`Found N matches of the string to replace, but replace_all is false. …`). Claude Code
 * runs these checks before its hooks, so there PreToolUse does not fire for such a call.
 * An empty old_string creates a missing file (or fills an empty one).
 *
 * Files with CRLF line endings are matched and reported with LF and written back with CRLF, so the
 * model never has to type `\r`. A deletion (`new_string: ""`) of text followed by a newline also
 * removes that newline, as Claude Code does. The write is atomic; the handler re-checks the file
 * (a hook may have changed it) and throws ToolFailure with the same messages if the edit no longer applies.
 */
export const Edit = defineTool({
  name: 'Edit',
  description: [
    'Performs an exact string replacement in a file.',
    '- Read the file first; old_string must match the file exactly, including indentation. Do not include the line-number prefix shown by Read.',
    '- The edit fails if old_string is not unique in the file: add surrounding context, or set replace_all to change every occurrence (useful for renames).',
    '- new_string must differ from old_string. An empty old_string creates a new file with new_string as its content.',
  ].join('\n'),
  inputSchema: editInput,
  outputSchema: editOutputSchema,
  kind: 'edit',
  readOnly: false,
  normalizeInput: (input, { cwd }) => ({
    ...input,
    file_path: resolveToolPath(input.file_path, cwd),
    replace_all: input.replace_all ?? false,
  }),
  filePaths: (input) => [input.file_path],
  // Only what the input alone shows is checked before the permission decision: whether the file
  // exists and what it holds is told only to a call that was allowed (the model could otherwise
  // probe a file it may not read, one old_string at a time).
  validateInput: async (input) => (input.old_string === input.new_string ? SAME_STRINGS : undefined),
  validateContent: async (input, context) => {
    const plan = planEdit(
      input,
      await loadFile(approvedDestination(resolveToolPath(input.file_path, context.cwd), context)),
      context.cwd,
    );
    return 'error' in plan ? plan.error : undefined;
  },
  handler: async (input, context): Promise<EditOutput> => {
    const absolutePath = resolveToolPath(input.file_path, context.cwd);
    const destination = approvedDestination(absolutePath, context);
    const file = await loadFile(destination);
    const plan = planEdit(input, file, context.cwd);
    if ('error' in plan) throw new ToolFailure(plan.error);
    const onDisk = file.kind === 'text' && file.crlf ? plan.updated.replaceAll('\n', '\r\n') : plan.updated;
    await writeOrFail(destination, onDisk);
    return {
      filePath: context.spelledPath ?? displayPath(absolutePath, context.cwd),
      oldString: input.old_string,
      newString: input.new_string,
      originalFile: plan.original,
      structuredPatch: computeStructuredPatch(plan.original, plan.updated),
      userModified: false,
      replaceAll: input.replace_all ?? false,
    };
  },
  render: (output) =>
    output.replaceAll
      ? `The file ${output.filePath} has been updated. All occurrences were successfully replaced.${FILE_STATE_NOTE}`
      : `The file ${output.filePath} has been updated successfully.${FILE_STATE_NOTE}`,
});

const SAME_STRINGS = 'No changes to make: old_string and new_string are exactly the same.';

/** What is at the path: nothing, a directory, an unreadable entry, or text (LF-normalized, with its line-ending style). */
type LoadedFile =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'unreadable'; message: string }
  | { kind: 'text'; content: string; crlf: boolean };

async function loadFile(absolutePath: string): Promise<LoadedFile> {
  try {
    const raw = await readNoFollow(absolutePath);
    const crlf = usesCrlf(raw);
    return { kind: 'text', content: crlf ? raw.replaceAll('\r\n', '\n') : raw, crlf };
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return { kind: 'missing' };
    if (isErrno(error, 'EISDIR')) return { kind: 'directory' };
    return { kind: 'unreadable', message: errorMessage(error) };
  }
}

/** CRLF when more lines end in `\r\n` than in a bare `\n`. */
function usesCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf;
}

/** Decides the edit: either the refusal text or the original and updated contents (LF). */
function planEdit(
  input: EditInput,
  file: LoadedFile,
  cwd: string,
): { error: string } | { original: string; updated: string } {
  const { old_string: oldString, new_string: newString } = input;
  const replaceAll = input.replace_all ?? false;
  if (oldString === newString) return { error: SAME_STRINGS };
  switch (file.kind) {
    case 'missing':
      return oldString === ''
        ? { original: '', updated: newString }
        : { error: `File does not exist. ${cwdNote(cwd)}` };
    case 'directory':
      return { error: 'Path is a directory, not a file. Edit changes the content of a file.' };
    case 'unreadable':
      return { error: file.message };
    case 'text':
      break;
  }
  const original = file.content;
  if (oldString === '') {
    return original.trim() === ''
      ? { original, updated: newString }
      : { error: 'Cannot create new file - file already exists.' };
  }
  const matches = original.split(oldString).length - 1;
  if (matches === 0) return { error: `String to replace not found in file.\nString: ${oldString}` };
  if (matches > 1 && !replaceAll) {
    return {
      error:
        `Found ${matches} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. ` +
        `To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${oldString}`,
    };
  }
  return { original, updated: applyEdit(original, oldString, newString, replaceAll) };
}

/**
 * The replacement itself, literal (no `$&` patterns). Deleting text that is followed by a newline
 * deletes that newline too, so removing a whole line leaves no blank line (Claude Code does the same).
 */
function applyEdit(content: string, oldString: string, newString: string, replaceAll: boolean): string {
  const target =
    newString === '' && !oldString.endsWith('\n') && content.includes(`${oldString}\n`)
      ? `${oldString}\n`
      : oldString;
  if (replaceAll) return content.split(target).join(newString);
  const index = content.indexOf(target);
  return content.slice(0, index) + newString + content.slice(index + target.length);
}
