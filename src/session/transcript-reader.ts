import fs from 'node:fs';
import { z } from 'zod';

/**
 * Reads a JSONL transcript as Claude Code and hookloop write it. Only the fields a resume needs are
 * checked (loosely: every other field and every unknown line type passes through untouched).
 */

const block = z.looseObject({ type: z.string() });

/** One transcript line, with the fields resume reads typed; unknown types and extra fields are kept. */
export const transcriptLineSchema = z.looseObject({
  type: z.string(),
  uuid: z.string().optional(),
  parentUuid: z.string().nullable().optional(),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  subtype: z.string().optional(),
  message: z
    .looseObject({
      id: z.string().optional(),
      role: z.string().optional(),
      model: z.string().optional(),
      content: z.union([z.string(), z.array(block)]).optional(),
      usage: z.looseObject({}).optional(),
    })
    .optional(),
  attachment: z.looseObject({ type: z.string() }).optional(),
  rendered: z.array(z.looseObject({ content: z.unknown() })).optional(),
  renderedRole: z.string().optional(),
});

/** A parsed transcript line. */
export type TranscriptLine = z.infer<typeof transcriptLineSchema>;

/** The lines of a transcript and what had to be skipped on the way. */
export interface TranscriptRead {
  readonly lines: readonly TranscriptLine[];
  /** One sentence per skipped line: a truncated last line (a crash mid-write), invalid JSON, an unexpected shape. */
  readonly warnings: readonly string[];
}

/**
 * Reads `file` line by line. A last line without its newline that does not parse is the remains of
 * a write cut short (a crash): it is skipped with a warning. Any other line that is not valid JSON
 * or not a transcript line is skipped with a warning too; reading never fails on content.
 * @throws the file system error when the file cannot be read (ENOENT, EACCES).
 */
export function readTranscriptLines(file: string): TranscriptRead {
  const text = fs.readFileSync(file, 'utf8');
  const rows = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete || rows.at(-1) === '') rows.pop();
  const lines: TranscriptLine[] = [];
  const warnings: string[] = [];
  rows.forEach((row, index) => {
    if (row.trim() === '') return;
    const last = index === rows.length - 1 && !complete;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      warnings.push(
        last
          ? `${file}: the last line is incomplete (the session was cut off while writing it); it was skipped`
          : `${file}: line ${index + 1} is not valid JSON; it was skipped`,
      );
      return;
    }
    const parsed = transcriptLineSchema.safeParse(value);
    if (parsed.success) lines.push(parsed.data);
    else
      warnings.push(
        `${file}: line ${index + 1} is not a transcript line (${parsed.error.issues[0]?.path.join('.') || 'type'}: ${parsed.error.issues[0]?.message}); it was skipped`,
      );
  });
  return { lines, warnings };
}
