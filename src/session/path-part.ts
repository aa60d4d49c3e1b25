import { createHash } from 'node:crypto';

/**
 * Ids that come from outside hookloop — a model's tool-use ids, session and agent ids, names in
 * hook payloads — become parts of file names (`tool-results/hook-<tool_use_id>-…txt`,
 * `session-env/<session>/`, `subagents/agent-<id>.jsonl`). A provider or a scripted model can send
 * any string as an id (`../../escape`, `a/b`, NUL, 10 kB), so every such id goes through
 * `safePathPart` first: the rule is one property of how ids become paths, not a list of bad inputs.
 */

const SAFE = /^[A-Za-z0-9_-]{1,100}$/;
const KEEP_CHARS = 64;

/**
 * `id` as one file-name component that can only name an entry inside the folder it is joined to.
 * An id of 1–100 characters from `[A-Za-z0-9_-]` (UUIDs, Anthropic's `toolu_…` ids, OpenAI's
 * `call_…` ids) is returned unchanged. Anything else — `/`, `\`, `.`, NUL, spaces, non-ASCII, empty,
 * too long — has every other character replaced by `_`, is cut to 64 characters, and gets `-` and
 * the first 16 hex digits of the SHA-256 of the original appended, so two distinct ids stay two
 * distinct names (`../../escape` → `______escape-<hash>`). Pure; never throws.
 */
export function safePathPart(id: string): string {
  if (SAFE.test(id)) return id;
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 16);
  return `${id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, KEEP_CHARS)}-${hash}`;
}
