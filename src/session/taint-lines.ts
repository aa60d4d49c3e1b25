import type { TranscriptLine } from './transcript-reader.js';

/** The transcript attachment type of a session-taint change (hookloop's own line, see `TaintChange`). */
export const SESSION_TAINT_ATTACHMENT = 'hookloop_session_taint';

/**
 * One change to a session's taint (hookloop extension), as the transcript keeps it, so that a
 * resumed session knows what the model wrote before: `wrote` adds, `trusted` removes.
 * - `files`: real paths written (or approved to run);
 * - `trees`: real paths below which anything may have been written (`cp -r`, `mv` of a directory);
 * - `unknown`: a write whose destination the shell computed (`> "$f"`, after a `cd`): any file may be it.
 */
export interface TaintChange {
  readonly kind: 'wrote' | 'trusted';
  readonly files: readonly string[];
  readonly trees?: readonly string[];
  readonly unknown?: boolean;
}

/**
 * The taint changes of a transcript's lines, oldest first: all of them, compactions included (a
 * summary does not make the model's writes go away). Malformed entries are skipped. Never throws.
 */
export function taintChangesOf(lines: readonly TranscriptLine[]): TaintChange[] {
  const changes: TaintChange[] = [];
  for (const line of lines) {
    const attachment = line.type === 'attachment' ? line.attachment : undefined;
    if (attachment?.['type'] !== SESSION_TAINT_ATTACHMENT) continue;
    const { kind, files, trees, unknown } = attachment as Record<string, unknown>;
    if ((kind !== 'wrote' && kind !== 'trusted') || !isStrings(files)) continue;
    changes.push({
      kind,
      files,
      ...(isStrings(trees) ? { trees } : {}),
      ...(unknown === true ? { unknown: true } : {}),
    });
  }
  return changes;
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
