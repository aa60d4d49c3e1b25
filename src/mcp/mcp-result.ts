import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { persistedOutputMessage } from '../hooks/output-size.js';
import type { ToolResultBlock } from '../messages/messages.js';
import { safePathPart } from '../session/path-part.js';
import { normalizeMcpName } from './mcp-names.js';
import { makeDirectorySync } from '../files/make-directory.js';

/** One block of an MCP tool result (`text`, `image`, `audio`, `resource`, `resource_link`), as the server sent it. */
export type McpContentBlock = CallToolResult['content'][number];

/** A block of an MCP tool's output as hooks and the model see it: text, or an Anthropic image block. */
export type McpOutputBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/**
 * An MCP tool's output as Claude Code 2.1.328 passes it on (PostToolUse `tool_response` and the
 * model's tool result alike): the JSON text of `structuredContent` when the server sent one; else
 * the content array (also when it holds an image, structuredContent or not) with images as Anthropic image blocks (followed by `[Image: source: <file>]`)
 * and every other block as text (`[Resource from <server> at <uri>] …`, `[Resource link: <name>]
 * <uri> (<description>)`, `[Audio from <server>] Binary content (…) saved to <file>`). An empty array reaches the
 * model as `(<tool> completed with no output)`.
 */
export type McpToolOutput = string | McpOutputBlock[];

/** Where binary content (images, audio, blob resources) is saved, and whose server it came from. */
export interface McpResultContext {
  /** The server's configured name (named in the descriptions: `[Audio from <server>]`). */
  readonly server: string;
  /** The session's `tool-results` folder; without one, binary content is described but not saved. */
  readonly blobDir?: string | undefined;
}

/** See {@link McpToolOutput}. Never throws: a blob that cannot be saved is described without a path. */
export function mcpToolOutput(
  result: Pick<CallToolResult, 'content' | 'structuredContent'>,
  context: McpResultContext,
): McpToolOutput {
  const content = Array.isArray(result.content) ? result.content : [];
  // An image cannot be told in JSON text: a result that has one goes as its content, image block
  // and all, even with structuredContent beside it.
  const hasImage = content.some((block) => block.type === 'image');
  if (!hasImage && result.structuredContent !== undefined && result.structuredContent !== null)
    return JSON.stringify(result.structuredContent);
  return content.flatMap((block) => outputBlocks(block, context));
}

function outputBlocks(block: McpContentBlock | McpOutputBlock, context: McpResultContext): McpOutputBlock[] {
  const text = (value: string): McpOutputBlock[] => [{ type: 'text', text: value }];
  if (block.type === 'text') return text(String((block as { text: unknown }).text));
  if (block.type === 'image') {
    // A hook's replacement may already be an Anthropic image block.
    if ('source' in block) return [block as McpOutputBlock];
    const saved = saveBlob(block.data, block.mimeType, context);
    return [
      { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } },
      ...(saved ? text(`[Image: source: ${saved}]`) : []),
    ];
  }
  if (block.type === 'audio')
    return text(`[Audio from ${context.server}] ${binaryDescription(block.data, block.mimeType, context)}`);
  if (block.type === 'resource') {
    const resource = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
    const head = `[Resource from ${context.server} at ${resource.uri}]`;
    if (typeof resource.text === 'string') return text(`${head} ${resource.text}`);
    return text(
      `${head} ${binaryDescription(resource.blob ?? '', resource.mimeType ?? 'application/octet-stream', context)}`,
    );
  }
  if (block.type === 'resource_link')
    return text(
      `[Resource link: ${block.name}] ${block.uri}${typeof block.description === 'string' && block.description !== '' ? ` (${block.description})` : ''}`,
    );
  return text(JSON.stringify(block));
}

function binaryDescription(base64: string, mimeType: string, context: McpResultContext): string {
  const bytes = Buffer.from(base64, 'base64').length;
  const saved = saveBlob(base64, mimeType, context);
  return `Binary content (${mimeType}, ${bytes} bytes)${saved ? ` saved to ${saved}` : ''}`;
}

// Claude Code names a saved blob by these; an archive type (gzip) is saved as .bin.
const EXTENSIONS: Readonly<Record<string, string>> = {
  jpeg: 'jpg',
  'octet-stream': 'bin',
  'svg+xml': 'svg',
  mpeg: 'mp3',
  plain: 'txt',
  gzip: 'bin',
  'x-gzip': 'bin',
};

/** Saves a blob as Claude Code does, `<tool-results>/mcp-<server>-blob-<ms>-<random>.<ext>`; the path, or undefined. */
function saveBlob(base64: string, mimeType: string, context: McpResultContext): string | undefined {
  if (context.blobDir === undefined) return undefined;
  const subtype = (mimeType.split('/')[1] ?? 'bin').toLowerCase();
  const extension = EXTENSIONS[subtype] ?? (/^[a-z0-9]+$/.test(subtype) ? subtype : 'bin');
  const file = path.join(
    context.blobDir,
    `mcp-${normalizeMcpName(context.server)}-blob-${Date.now()}-${randomBytes(3).toString('hex')}.${extension}`,
  );
  try {
    makeDirectorySync(context.blobDir, 0o700);
    fs.writeFileSync(file, Buffer.from(base64, 'base64'), { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}

/** An output (or a hook's replacement of it) as tool-result blocks; a string output goes as text. */
export function outputResultBlocks(
  output: McpToolOutput,
  context: McpResultContext,
): ToolResultBlock[] | undefined {
  if (typeof output === 'string') return undefined;
  // The API refuses empty text blocks.
  const blocks = output
    .flatMap((block) => outputBlocks(block, context))
    .filter((block) => block.type !== 'text' || block.text !== '');
  return blocks.length > 0 ? (blocks as ToolResultBlock[]) : undefined;
}

/** The text of an output: image blocks as `[image: <type>]` (for transports that take only text). */
export function outputText(output: McpToolOutput): string {
  if (typeof output === 'string') return output;
  return output
    .map((block) => (block.type === 'text' ? block.text : `[image: ${block.source.media_type}]`))
    .join('\n');
}

/** The text of an error result, its text blocks one per line (Claude Code's PostToolUseFailure `error`). */
export function errorText(content: readonly McpContentBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** Claude Code saves an MCP output whose text is longer than this to a file and sends a preview. */
export const MAX_MCP_OUTPUT_CHARS = 50_000;

/**
 * The `<persisted-output>` text the model gets instead of an MCP output whose text is longer than
 * {@link MAX_MCP_OUTPUT_CHARS}, as Claude Code sends it: the output (as pretty JSON, or the string)
 * saved to `<tool-results>/<tool_use_id>.json` (`.txt`), and its first 2 KB. Undefined for a
 * shorter output, or when there is no folder or it cannot be written (the output then goes whole).
 */
export function persistedMcpOutput(
  output: McpToolOutput,
  toolUseId: string,
  blobDir: string | undefined,
): string | undefined {
  const length =
    typeof output === 'string'
      ? output.length
      : output.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  if (length <= MAX_MCP_OUTPUT_CHARS || blobDir === undefined) return undefined;
  const text = typeof output === 'string' ? output : JSON.stringify(output, null, 2);
  // The model chose the id: it becomes a file name only through safePathPart.
  const file = path.join(
    blobDir,
    `${safePathPart(toolUseId)}.${typeof output === 'string' ? 'txt' : 'json'}`,
  );
  try {
    makeDirectorySync(blobDir, 0o700);
    fs.writeFileSync(file, text, { mode: 0o600 });
  } catch {
    return undefined;
  }
  return persistedOutputMessage(text, file);
}
