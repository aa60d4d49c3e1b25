import { userMessage } from '../messages/messages.js';
import type { McpClient } from '../mcp/mcp-client.js';
import { appendMessage, type RunContext } from './run-context.js';

// Claude Code's reading of a resource mention: `@` at the start or after white space, then
// `<server>:<uri>` up to the next white space, ending on a word boundary (so a sentence's closing
// punctuation is not part of the URI).
const MENTION = /(?:^|\s)@([^\s]+:[^\s]+)\b/g;

/** The `@server:uri` mentions of `prompt`, in order, each once. */
export function resourceMentions(prompt: string): { server: string; uri: string }[] {
  const seen = new Set<string>();
  const found: { server: string; uri: string }[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const mention = match[1]!;
    if (seen.has(mention)) continue;
    seen.add(mention);
    const colon = mention.indexOf(':');
    found.push({ server: mention.slice(0, colon), uri: mention.slice(colon + 1) });
  }
  return found;
}

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;

/**
 * Attaches each `@server:uri` resource of `prompt` after it, as Claude Code 2.1.328 does: the
 * prompt stays as typed, and the resource's `resources/read` answer follows as user text in
 * `<system-reminder>` tags — per text content `Full contents of resource:`, the text, and `Do NOT
 * read this resource again unless you think it may have changed, since you already have the full
 * contents.`; per blob `[Binary content: <mime type>]`; for an empty answer
 * `<mcp-resource server="…" uri="…">(No content)</mcp-resource>`.
 *
 * A mention naming no connected server, or a URI the server does not list, or a read that fails, is
 * left as typed with one warning each; the prompt is sent in every case. Must not throw.
 */
export async function attachResourceMentions(
  run: RunContext,
  prompt: string,
  clients: readonly McpClient[],
): Promise<void> {
  for (const { server, uri } of resourceMentions(prompt)) {
    const client = clients.find((candidate) => candidate.name === server && candidate.state === 'connected');
    const warn = (why: string) =>
      run.emit({ type: 'warning', text: `@${server}:${uri} is left as typed: ${why}` });
    if (client === undefined) {
      warn(`no connected MCP server is named "${server}"`);
      continue;
    }
    try {
      const listed = await client.listResources(run.signal);
      if (!listed.some((resource) => resource.uri === uri)) {
        warn(`MCP server "${server}" lists no resource ${uri}`);
        continue;
      }
      const read = await client.readResource(uri, run.signal);
      for (const text of resourceTexts(server, uri, read.contents))
        appendMessage(run, userMessage(reminder(text)));
    } catch (error) {
      warn(
        `MCP server "${server}" could not read it: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The texts Claude Code sends for a read resource (see attachResourceMentions). */
function resourceTexts(
  server: string,
  uri: string,
  contents: readonly { text?: unknown; blob?: unknown; mimeType?: unknown }[],
): string[] {
  const texts = contents.flatMap((item) => {
    if (typeof item.text === 'string')
      return [
        'Full contents of resource:',
        item.text,
        'Do NOT read this resource again unless you think it may have changed, since you already have the full contents.',
      ];
    if (item.blob !== undefined)
      return [
        `[Binary content: ${typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream'}]`,
      ];
    return [];
  });
  if (texts.length > 0) return texts;
  const shown = contents.length === 0 ? 'No content' : 'No displayable content';
  return [`<mcp-resource server="${server}" uri="${uri}">(${shown})</mcp-resource>`];
}
