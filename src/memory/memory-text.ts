import type { MemoryFile, MemoryType } from './load-memory.js';

/** The opening line of the memory reminder (hookloop's words). */
export const MEMORY_HEADER =
  'The user and the project keep instructions for you in the files below. Follow them: where they differ from your defaults, they win, and a later file wins over an earlier one.';

/** How each kind of memory file is described to the model, in Claude Code's words. */
const DESCRIPTIONS: Readonly<Record<MemoryType, string>> = {
  Managed: 'managed policy instructions, set by an administrator for every user',
  User: "user's private global instructions for all projects",
  Project: 'project instructions, checked into the codebase',
  Local: "user's private project instructions, not checked in",
};

/**
 * The user text that carries the memory files to the model, before the first prompt, as Claude Code
 * sends them: one `<system-reminder>` holding, per file, `Contents of <path> (<kind>):` and the
 * file's text. Undefined when there are no files (or all are empty).
 */
export function memoryReminder(files: readonly MemoryFile[]): string | undefined {
  const sections = files
    .filter((file) => file.content !== '')
    .map((file) => `Contents of ${file.path} (${DESCRIPTIONS[file.memoryType]}):\n\n${file.content}`);
  if (sections.length === 0) return undefined;
  return `<system-reminder>\n${[MEMORY_HEADER, ...sections].join('\n\n')}\n</system-reminder>`;
}

/** True for the user text memoryReminder builds (a transcript marks it as not typed by the user). */
export function isMemoryReminder(text: string): boolean {
  return text.startsWith(`<system-reminder>\n${MEMORY_HEADER}\n`);
}
