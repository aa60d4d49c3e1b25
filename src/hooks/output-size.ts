import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { safePathPart } from '../session/path-part.js';
import { PLAIN_CONTEXT_EVENTS } from './event-table.js';
import type { HandlerOutcome } from './outcome.js';
import { makeDirectorySync } from '../files/make-directory.js';

/**
 * The 10,000-character cap on `additionalContext` (pre-huge-output): a longer text is
 * saved whole to a file next to the session transcript and the model gets a preview in Claude
 * Code's `<persisted-output>` frame instead. Other hook strings (an exit-2 stderr, a reason) are
 * passed whole, as the reference passes them.
 */

/** Longest `additionalContext` passed as is. */
export const MAX_CONTEXT_CHARS = 10_000;
/** How much of a persisted text the preview shows (cut at a line end in its second half). */
export const PREVIEW_CHARS = 2000;

/**
 * The outcome with an oversized `additionalContext` — or, on SessionStart and UserPromptSubmit, an
 * oversized plain stdout, which is context there too — replaced by its `<persisted-output>` preview,
 * the full text saved (mode 0600, like transcripts) to
 * `<transcript dir>/<session>/tool-results/hook-<tool_use_id>-<Event>-<hash>-<additionalContext|stdout>.txt`
 * (Claude Code's place and name for it; a random UUID in place of the `<tool_use_id>` on events
 * without a tool call). When the file cannot be
 * written the text is cut to the cap with a note saying why. Any other outcome is returned as is.
 * Never throws.
 */
export function capContext(
  outcome: HandlerOutcome,
  input: Readonly<Record<string, unknown>>,
): HandlerOutcome {
  let capped = outcome;
  const specific = outcome.output['hookSpecificOutput'] as Record<string, unknown> | undefined;
  const context = specific?.['additionalContext'];
  if (typeof context === 'string' && context.length > MAX_CONTEXT_CHARS) {
    capped = {
      ...capped,
      output: {
        ...capped.output,
        hookSpecificOutput: { ...specific, additionalContext: persistContext(context, input) },
      },
    };
  }
  const plain = capped.plainText;
  if (
    plain !== undefined &&
    plain.length > MAX_CONTEXT_CHARS &&
    PLAIN_CONTEXT_EVENTS.has(String(input['hook_event_name']))
  ) {
    capped = { ...capped, plainText: persistContext(plain, input, 'stdout') };
  }
  return capped;
}

/** The `<persisted-output>` text for `text` (exported for tests). */
export function persistedOutputMessage(text: string, file: string): string {
  const { preview, more } = previewOf(text);
  return `<persisted-output>\nOutput too large (${formatSize(Buffer.byteLength(text))}). Full output saved to: ${file}\n\nPreview (first ${formatSize(PREVIEW_CHARS)}):\n${preview}${more ? '\n...\n' : '\n'}</persisted-output>`;
}

function persistContext(
  text: string,
  input: Readonly<Record<string, unknown>>,
  field: 'additionalContext' | 'stdout' = 'additionalContext',
): string {
  const transcript = typeof input['transcript_path'] === 'string' ? input['transcript_path'] : undefined;
  const event =
    typeof input['hook_event_name'] === 'string' ? safePathPart(input['hook_event_name']) : 'Hook';
  // The model chose the tool-use id: it becomes a file name only through safePathPart. Events
  // without a call get a random id in its place, as Claude Code names their files.
  const toolUseId = `${typeof input['tool_use_id'] === 'string' ? safePathPart(input['tool_use_id']) : randomUUID()}-`;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
  if (transcript !== undefined) {
    const dir = path.join(path.dirname(transcript), path.basename(transcript, '.jsonl'), 'tool-results');
    const file = path.join(dir, `hook-${toolUseId}${event}-${hash}-${field}.txt`);
    try {
      makeDirectorySync(dir, 0o700);
      fs.writeFileSync(file, text, { mode: 0o600 });
      return persistedOutputMessage(text, file);
    } catch (error) {
      return `${text.slice(0, MAX_CONTEXT_CHARS)}\n[hookloop: ${field} cut at ${MAX_CONTEXT_CHARS} characters; saving the rest failed: ${(error as Error).message}]`;
    }
  }
  return `${text.slice(0, MAX_CONTEXT_CHARS)}\n[hookloop: ${field} cut at ${MAX_CONTEXT_CHARS} characters]`;
}

function previewOf(text: string): { preview: string; more: boolean } {
  if (text.length <= PREVIEW_CHARS) return { preview: text, more: false };
  const window = text.slice(0, PREVIEW_CHARS);
  const lastNewline = window.lastIndexOf('\n');
  return {
    preview: text.slice(0, lastNewline > PREVIEW_CHARS / 2 ? lastNewline : PREVIEW_CHARS),
    more: true,
  };
}

/** `14.7KB`, `2KB`, `512 bytes`, `1.2MB`: Claude Code's size wording. */
function formatSize(bytes: number): string {
  const kb = bytes / 1024;
  if (kb < 1) return `${bytes} bytes`;
  if (kb < 1024) return `${kb.toFixed(1).replace(/\.0$/, '')}KB`;
  return `${(kb / 1024).toFixed(1).replace(/\.0$/, '')}MB`;
}
