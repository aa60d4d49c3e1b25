import { structuredPatch } from 'diff';
import { z } from 'zod';

/**
 * One hunk of a unified diff as Claude Code reports it in Write/Edit `tool_response.structuredPatch`.
 * Line numbers are 1-based; `lines` carry a one-character prefix (`' '` context, `'-'` removed,
 * `'+'` added, `'\\'` for the "No newline at end of file" marker).
 */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Zod schema of {@link PatchHunk}, for the tools' `outputSchema`. */
export const patchHunkSchema = z.object({
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  lines: z.array(z.string()),
});

/** Context lines around each change, as in Claude Code (and `diff -u`). */
const CONTEXT_LINES = 3;

/** A pathological pair of files must not stall a tool call; past this the patch is one whole-file hunk. */
const DIFF_TIMEOUT_MS = 5_000;

/**
 * Computes the hunks that turn `oldContent` into `newContent` (3 lines of context), in the exact
 * key order Claude Code uses: `{oldStart, oldLines, newStart, newLines, lines}`.
 * Identical contents give `[]`. Never throws; if the diff takes longer than 5 s it falls back to a
 * single hunk replacing every old line with every new line.
 *
 * @example
 * computeStructuredPatch('old content\n', 'new content\n')
 * // [{oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-old content', '+new content']}]
 */
export function computeStructuredPatch(oldContent: string, newContent: string): PatchHunk[] {
  if (oldContent === newContent) return [];
  const patch = structuredPatch('a', 'b', oldContent, newContent, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return [wholeFileHunk(oldContent, newContent)];
  return patch.hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    lines: [...hunk.lines],
  }));
}

function wholeFileHunk(oldContent: string, newContent: string): PatchHunk {
  const oldLines = splitLines(oldContent);
  const newLines = splitLines(newContent);
  return {
    oldStart: 1,
    oldLines: oldLines.length,
    newStart: 1,
    newLines: newLines.length,
    lines: [...oldLines.map((line) => `-${line}`), ...newLines.map((line) => `+${line}`)],
  };
}

/** Lines of a text, a final newline ending the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
