import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import picomatch from 'picomatch';
import { glob as findFiles } from 'tinyglobby';
import { z } from 'zod';
import { defineTool, ToolFailure, type ToolContext } from '../define-tool.js';
import { cwdNote, displayPath, errorMessage, resolveToolPath } from './read.js';

/** Glob returns at most this many paths (Claude Code's limit); `truncated` says when more matched. */
export const GLOB_MAX_RESULTS = 100;

const globInput = z.strictObject({
  pattern: z
    .string()
    .describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{js,jsx}"'),
  path: z
    .string()
    .optional()
    .describe('The directory to search in. Omit it to search the current working directory'),
});

/** Glob's `tool_response` (Claude Code shape and key order, trace tools-glob-grep). */
export const globOutputSchema = z.object({
  filenames: z.array(z.string()),
  durationMs: z.number(),
  numFiles: z.number(),
  truncated: z.boolean(),
  totalMatches: z.number(),
  countIsComplete: z.boolean(),
});

/** {@link globOutputSchema} as a type. */
export type GlobOutput = z.infer<typeof globOutputSchema>;

/**
 * `Glob`: lists the files matching a glob pattern under `path` (default: the cwd).
 *
 * Standard glob syntax (`*`, `**`, `{a,b}`, `?`, `[…]`) relative to the searched directory; files
 * only (a pattern naming a directory finds nothing); dotfiles included; `.git` and
 * `node_modules` skipped unless the pattern or path names them. Results are sorted by
 * modification time, oldest first (ties by path), as Claude Code does (trace tools-glob-grep: the
 * earlier-written `src/a.ts` before `src/b.ts`), and limited to the first 100.
 *
 * `tool_response`: `{filenames (relative to the cwd when inside it), durationMs, numFiles,
 * truncated, totalMatches, countIsComplete: true}`. Render: one path per line, `No files found`
 * when empty, plus a note when truncated. `validateContent` (after the permission decision)
 * refuses a `path` that does not exist or is not a directory; `normalizeInput` makes a given
 * `path` absolute. Only files the call may read are listed (`ToolContext.mayRead`: inside the
 * workspace or the approved search path, not covered by a deny or ask rule); the others are left
 * out of the names and the counts alike.
 */
export const Glob = defineTool({
  name: 'Glob',
  description: [
    'Fast file pattern matching for any codebase size.',
    '- Supports glob patterns like "**/*.js" or "src/**/*.ts"; returns matching file paths sorted by modification time.',
    `- Returns at most ${GLOB_MAX_RESULTS} paths; use a more specific pattern or path when the result is truncated.`,
    '- Use Grep to search file contents.',
  ].join('\n'),
  inputSchema: globInput,
  outputSchema: globOutputSchema,
  kind: 'read',
  readOnly: true,
  normalizeInput: (input, { cwd }) =>
    input.path === undefined ? input : { ...input, path: resolveToolPath(input.path, cwd) },
  // The directory searched, and the fixed start of the pattern when it leaves it (`/etc/host*`,
  // `../x/*`): the workspace boundary and Read rules judge both before anything is listed.
  filePaths: (input, { cwd }) => {
    const directory = input.path ?? cwd;
    const base = picomatch.scan(input.pattern).base;
    return base === '' ? [directory] : [directory, path.resolve(directory, base)];
  },
  validateContent: async (input, context) =>
    input.path === undefined ? undefined : checkSearchDirectory(input.path, context.cwd),
  handler: async (input, context): Promise<GlobOutput> => {
    const started = performance.now();
    const directory = resolveToolPath(input.path ?? '.', context.cwd);
    let matches: string[];
    try {
      matches = await findFiles(input.pattern, {
        cwd: directory,
        absolute: true,
        dot: true,
        onlyFiles: true,
        expandDirectories: false,
        ignore: defaultIgnores(input.pattern, directory),
        signal: context.signal,
      });
    } catch (error) {
      throw new ToolFailure(`Glob failed: ${errorMessage(error)}`);
    }
    const sorted = await sortByModificationTime(await readableOnly(matches, context), 'oldest-first');
    const kept = sorted.slice(0, GLOB_MAX_RESULTS);
    return {
      filenames: kept.map((file) => displayPath(file, context.cwd)),
      durationMs: Math.round(performance.now() - started),
      numFiles: kept.length,
      truncated: sorted.length > kept.length,
      totalMatches: sorted.length,
      countIsComplete: true,
    };
  },
  render: (output) => {
    if (output.filenames.length === 0) return 'No files found';
    const lines = [...output.filenames];
    if (output.truncated)
      lines.push('(Results are truncated. Consider using a more specific path or pattern.)');
    return lines.join('\n');
  },
});

/**
 * The files of `files` (absolute) that this call may show, in order: `context.mayRead` decides;
 * without it (a handler run outside the loop), files whose real path is in the workspace.
 */
export async function readableOnly(files: readonly string[], context: ToolContext): Promise<string[]> {
  const mayRead = context.mayRead ?? (async (file: string) => context.workspace.contains(file));
  const verdicts = await Promise.all(files.map((file) => mayRead(file)));
  return files.filter((_, index) => verdicts[index] === true);
}

/** Validation text for a search directory that is missing or not a directory (Claude Code wording); undefined when fine. */
export async function checkSearchDirectory(absolutePath: string, cwd: string): Promise<string | undefined> {
  const stats = await fs.stat(absolutePath).catch(() => undefined);
  if (stats === undefined) return `Directory does not exist: ${absolutePath}. ${cwdNote(cwd)}`;
  if (!stats.isDirectory()) return `Path is not a directory: ${absolutePath}`;
  return undefined;
}

/**
 * Ignore globs for a search: `.git` and `node_modules` trees, each kept out unless one of `mentions`
 * (the pattern, the path) has it as a path segment, so `node_modules/foo/**` still works.
 */
export function defaultIgnores(...mentions: readonly string[]): string[] {
  const named = (name: string) => mentions.some((text) => text.split(/[\\/]/).includes(name));
  return [...(named('.git') ? [] : ['**/.git/**']), ...(named('node_modules') ? [] : ['**/node_modules/**'])];
}

/**
 * Sorts absolute paths by modification time (`oldest-first` for Glob, `newest-first` for Grep's
 * file list, as Claude Code does), ties broken by path. A file that vanished sorts as time 0.
 */
export async function sortByModificationTime(
  files: readonly string[],
  order: 'oldest-first' | 'newest-first',
): Promise<string[]> {
  const stamped = await Promise.all(
    files.map(async (file) => ({
      file,
      mtime: await fs.stat(file).then(
        (stats) => stats.mtimeMs,
        () => 0,
      ),
    })),
  );
  const direction = order === 'oldest-first' ? 1 : -1;
  stamped.sort((a, b) => (a.mtime - b.mtime) * direction || compareText(a.file, b.file));
  return stamped.map(({ file }) => file);
}

/** Code-unit order, the same on every machine (unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
