import yaml from 'js-yaml';
import { ConfigError } from '../errors.js';

/**
 * Splits a Markdown file with YAML front matter (`---\n<yaml>\n---\n<body>`), as Claude Code's
 * agent and skill files are written. A file without front matter has empty fields and the whole
 * text as body. @throws ConfigError `<file>: front matter: <problem>` when the YAML does not parse
 * or is not a mapping.
 */
export function readFrontMatter(
  text: string,
  file: string,
): { fields: Record<string, unknown>; body: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/.exec(normalized);
  if (!match) return { fields: {}, body: normalized.trim() };
  let fields: unknown;
  try {
    // JSON_SCHEMA: plain data only (no dates, no custom tags), as a definition file needs.
    fields = yaml.load(match[1]!, { schema: yaml.JSON_SCHEMA, filename: file });
  } catch (error) {
    const reason =
      (error as { reason?: string; mark?: { line?: number } }).reason ?? (error as Error).message;
    const line = (error as { mark?: { line?: number } }).mark?.line;
    throw new ConfigError(
      `${file}: front matter: ${reason}${line !== undefined ? ` (line ${line + 2})` : ''}`,
      { file, field: 'front matter', cause: error },
    );
  }
  if (fields === null || fields === undefined) fields = {};
  if (typeof fields !== 'object' || Array.isArray(fields))
    throw new ConfigError(
      `${file}: front matter: expected "key: value" lines, got ${Array.isArray(fields) ? 'a list' : JSON.stringify(fields)}`,
      { file, field: 'front matter' },
    );
  return { fields: fields as Record<string, unknown>, body: normalized.slice(match[0].length).trim() };
}
