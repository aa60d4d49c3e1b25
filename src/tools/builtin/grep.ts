import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, ToolFailure, type ToolContext } from '../define-tool.js';
import { compareText, readableOnly, sortByModificationTime } from './glob.js';
import { cwdNote, displayPath, errorMessage, looksBinary, resolveToolPath } from './read.js';
import { listFiles } from './grep-files.js';

/** Entries (lines, files, counts) returned when the model gives no `head_limit` (Claude Code's default); 0 = unlimited. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;

const contextLines = z.number().int().nonnegative();

const grepInput = z.strictObject({
  pattern: z.string().describe('The regular expression to search for in file contents'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search in. Defaults to the current working directory'),
  glob: z
    .string()
    .optional()
    .describe(
      'Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}"); several separated by spaces or commas',
    ),
  type: z.string().optional().describe('File type to search (js, ts, py, rust, go, java, …)'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"content" shows matching lines, "files_with_matches" (default) shows file paths, "count" shows match counts',
    ),
  '-i': z.boolean().optional().describe('Case insensitive search'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true)'),
  '-A': contextLines.optional().describe('Lines to show after each match (content mode)'),
  '-B': contextLines.optional().describe('Lines to show before each match (content mode)'),
  '-C': contextLines.optional().describe('Lines to show before and after each match (content mode)'),
  context: contextLines.optional().describe('Same as -C'),
  head_limit: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      `Return only the first N lines / files / count entries (default ${GREP_DEFAULT_HEAD_LIMIT}; 0 for no limit)`,
    ),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Skip the first N lines / files / count entries'),
  multiline: z
    .boolean()
    .optional()
    .describe('Let patterns span lines; . also matches newlines (default false)'),
});

type GrepInput = z.infer<typeof grepInput>;

const pagination = { appliedLimit: z.number().optional(), appliedOffset: z.number().optional() };

/** Grep's `tool_response`, one Claude Code shape per mode (trace tools-glob-grep); pagination keys only when applied. */
export const grepOutputSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('content'),
    numFiles: z.number(),
    filenames: z.array(z.string()),
    content: z.string(),
    numLines: z.number(),
    totalLines: z.number(),
    ...pagination,
  }),
  z.object({
    mode: z.literal('files_with_matches'),
    filenames: z.array(z.string()),
    numFiles: z.number(),
    totalFiles: z.number(),
    ...pagination,
  }),
  z.object({
    mode: z.literal('count'),
    numFiles: z.number(),
    filenames: z.array(z.string()),
    content: z.string(),
    numMatches: z.number(),
    ...pagination,
  }),
]);

/** {@link grepOutputSchema} as a type. */
export type GrepOutput = z.infer<typeof grepOutputSchema>;

/**
 * `Grep`: searches file contents with a regular expression, like Claude Code's ripgrep-backed tool.
 *
 * The pattern is a JavaScript RegExp (Unicode mode when it compiles so; a leading `(?i)` is
 * honoured). Files: every file under `path` (or that one file), dotfiles included, `.git` and
 * `node_modules` skipped unless named, binary files (NUL in the first 8 KB) and files over 20 MB
 * skipped; `glob` filters like ripgrep's `--glob` (a pattern without `/` matches the file name at
 * any depth; `!` excludes), `type` by ripgrep file type. Paths are shown relative to the cwd.
 * Only files the call may read are searched (`ToolContext.mayRead`: inside the workspace or the
 * approved search path, not covered by a deny or ask rule): the others are never opened. Whether
 * `path` exists is checked after the permission decision (`validateContent`).
 *
 * Modes (shapes in {@link grepOutputSchema}):
 * - `files_with_matches` (default): files sorted newest first (ties by path); render
 *   `Found N files\n<path>…` or `No files found`.
 * - `content`: `path:line:text` (`-n` defaults to true; context lines use `-` and groups are separated
 *   by `--`), files in path order; render the lines or `No matches found`.
 * - `count`: `path:N` (N = matching lines, as `rg --count`), render plus
 *   `\n\nFound T total occurrences across F files.`
 * `head_limit` (default 250, 0 = none) and `offset` page the lines/files/entries; when they cut
 * something the response carries `appliedLimit`/`appliedOffset` and the render says so.
 * An invalid regex or unknown type throws ToolFailure.
 */
export const Grep = defineTool({
  name: 'Grep',
  description: [
    'Searches file contents with a regular expression (JavaScript syntax, ripgrep-like options).',
    '- Filter files with glob (e.g. "*.ts") or type (e.g. "py"); search a path or the current directory.',
    '- output_mode: "files_with_matches" (default) lists files, "content" shows matching lines (with -A/-B/-C context, -n line numbers), "count" counts matching lines per file.',
    '- Use multiline: true for patterns that span lines. Use head_limit/offset to page through large results.',
  ].join('\n'),
  inputSchema: grepInput,
  outputSchema: grepOutputSchema,
  kind: 'read',
  readOnly: true,
  normalizeInput: (input, { cwd }) =>
    input.path === undefined ? input : { ...input, path: resolveToolPath(input.path, cwd) },
  filePaths: (input, { cwd }) => [input.path ?? cwd],
  validateContent: async (input, context) => {
    if (input.path === undefined) return undefined;
    const exists = await fs.stat(resolveToolPath(input.path, context.cwd)).then(
      () => true,
      () => false,
    );
    return exists ? undefined : `Path does not exist: ${input.path}. ${cwdNote(context.cwd)}`;
  },
  handler: runGrep,
  render: renderGrep,
});

async function runGrep(input: GrepInput, context: ToolContext): Promise<GrepOutput> {
  const regex = compilePattern(input.pattern, {
    ignoreCase: input['-i'] === true,
    multiline: input.multiline === true,
  });
  const target = resolveToolPath(input.path ?? '.', context.cwd);
  const listed = await listFiles(target, input, context.signal);
  // Files the call may not read are dropped before any is opened: no match, count or error shows them.
  const files = await readableOnly(listed.files, context);
  const singleFile = listed.singleFile;
  const mode = input.output_mode ?? 'files_with_matches';
  const before = input['-B'] ?? input['-C'] ?? input.context ?? 0;
  const after = input['-A'] ?? input['-C'] ?? input.context ?? 0;
  const results: FileMatches[] = [];
  for (let start = 0; start < files.length; start += SEARCH_BATCH) {
    if (context.signal.aborted) throw new ToolFailure('Search was aborted before completion');
    const batch = await Promise.all(
      files
        .slice(start, start + SEARCH_BATCH)
        .map((file) => searchFile(file, regex, input.multiline === true)),
    );
    for (const result of batch)
      if (result !== undefined && result.matchedLines.length > 0) results.push(result);
  }
  const show = (file: string) => displayPath(file, context.cwd);
  const page = paging(input);

  if (mode === 'files_with_matches') {
    const sorted = await sortByModificationTime(
      results.map((result) => result.file),
      'newest-first',
    );
    const { items, extra } = page(sorted.map(show));
    return { mode, filenames: items, numFiles: items.length, totalFiles: sorted.length, ...extra };
  }
  results.sort((a, b) => compareText(a.file, b.file));
  const prefix = (file: string) => (singleFile ? '' : show(file));
  if (mode === 'count') {
    const entries = results.map((result) => ({
      line: joinPrefix(prefix(result.file), ':', String(result.matchedLines.length)),
      count: result.matchedLines.length,
    }));
    const { items, extra } = page(entries);
    return {
      mode,
      numFiles: items.length,
      filenames: [],
      content: items.map((entry) => entry.line).join('\n'),
      numMatches: items.reduce((sum, entry) => sum + entry.count, 0),
      ...extra,
    };
  }
  const lines = contentLines(results, { before, after, lineNumbers: input['-n'] ?? true, prefix });
  const { items, extra } = page(lines);
  return {
    mode,
    numFiles: 0,
    filenames: [],
    content: items.join('\n'),
    numLines: items.length,
    totalLines: lines.length,
    ...extra,
  };
}

/** Files searched in parallel at once (bounded to keep open descriptors low). */
const SEARCH_BATCH = 32;

/** ripgrep's `--max-columns` as Claude Code sets it: longer lines are replaced by a placeholder. */
const MAX_COLUMNS = 500;

/** `content` mode lines: matches as `path:N:text`, context as `path-N-text`, `--` between separate groups. */
function contentLines(
  results: readonly FileMatches[],
  options: { before: number; after: number; lineNumbers: boolean; prefix: (file: string) => string },
): string[] {
  const output: string[] = [];
  const withContext = options.before > 0 || options.after > 0;
  for (const result of results) {
    const matched = new Set(result.matchedLines);
    const shown = new Set<number>();
    for (const line of result.matchedLines) {
      for (
        let index = Math.max(0, line - options.before);
        index <= Math.min(result.lines.length - 1, line + options.after);
        index += 1
      )
        shown.add(index);
    }
    let previous: number | undefined;
    for (const index of [...shown].sort((a, b) => a - b)) {
      if (withContext && output.length > 0 && (previous === undefined || index > previous + 1))
        output.push('--');
      previous = index;
      const separator = matched.has(index) ? ':' : '-';
      const rawText = result.lines[index] ?? '';
      const text =
        rawText.length <= MAX_COLUMNS ? rawText : omittedLine(rawText, matched.has(index), result.regex);
      const location = options.lineNumbers
        ? joinPrefix(options.prefix(result.file), separator, String(index + 1))
        : options.prefix(result.file);
      output.push(joinPrefix(location, separator, text));
    }
  }
  return output;
}

/** ripgrep's placeholders for a line over {@link MAX_COLUMNS}. */
function omittedLine(text: string, isMatch: boolean, regex: RegExp): string {
  if (!isMatch) return '[Omitted long context line]';
  const global = new RegExp(regex.source, `${regex.flags}g`);
  let count = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    count += 1;
    if (match[0] === '') global.lastIndex += 1;
  }
  return `[Omitted long line with ${count} matches]`;
}

function joinPrefix(prefix: string, separator: string, text: string): string {
  return prefix === '' ? text : `${prefix}${separator}${text}`;
}

/** Applies `offset` and `head_limit` to a list and reports what was applied, Claude Code style. */
function paging(input: GrepInput) {
  const limit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
  const offset = input.offset ?? 0;
  return <T>(all: readonly T[]): { items: T[]; extra: { appliedLimit?: number; appliedOffset?: number } } => {
    const rest = all.slice(offset);
    const cut = limit > 0 && rest.length > limit;
    return {
      items: cut ? rest.slice(0, limit) : rest,
      extra: { ...(cut ? { appliedLimit: limit } : {}), ...(offset > 0 ? { appliedOffset: offset } : {}) },
    };
  };
}

/** Model-visible text per mode (see {@link Grep}). */
function renderGrep(output: GrepOutput): string {
  const limitInfo = [
    output.appliedLimit === undefined ? '' : `limit: ${output.appliedLimit}`,
    output.appliedOffset === undefined ? '' : `offset: ${output.appliedOffset}`,
  ]
    .filter((part) => part !== '')
    .join(', ');
  switch (output.mode) {
    case 'content': {
      const text = output.content === '' ? 'No matches found' : output.content;
      return limitInfo === '' ? text : `${text}\n\n[Showing results with pagination = ${limitInfo}]`;
    }
    case 'count': {
      const text = output.content === '' ? 'No matches found' : output.content;
      const occurrences = `${output.numMatches} total ${output.numMatches === 1 ? 'occurrence' : 'occurrences'}`;
      const files = `${output.numFiles} ${output.numFiles === 1 ? 'file' : 'files'}`;
      return `${text}\n\nFound ${occurrences} across ${files}.${limitInfo === '' ? '' : ` with pagination = ${limitInfo}`}`;
    }
    case 'files_with_matches': {
      if (output.numFiles === 0) return 'No files found';
      const header = `Found ${output.numFiles} ${output.numFiles === 1 ? 'file' : 'files'}${limitInfo === '' ? '' : ` ${limitInfo}`}`;
      return [header, ...output.filenames].join('\n');
    }
  }
}

/** Files larger than this are skipped rather than read into memory. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** One searched file: its lines (no line terminators) and the 0-based indices of the lines that matched. */
interface FileMatches {
  file: string;
  lines: string[];
  matchedLines: number[];
  regex: RegExp;
}

/**
 * Compiles the model's pattern. `m` makes `^`/`$` line anchors (ripgrep's default), `s` lets `.`
 * cross newlines in multiline mode, `u` is used whenever the pattern is valid in Unicode mode.
 * A leading `(?i)` (ripgrep inline flag, not JavaScript syntax) becomes the `i` flag.
 * Throws ToolFailure for an invalid pattern.
 */
function compilePattern(pattern: string, options: { ignoreCase: boolean; multiline: boolean }): RegExp {
  const inlineIgnoreCase = pattern.startsWith('(?i)');
  const source = inlineIgnoreCase ? pattern.slice(4) : pattern;
  const flags = `${options.ignoreCase || inlineIgnoreCase ? 'i' : ''}${options.multiline ? 's' : ''}m`;
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // Not valid in Unicode mode (e.g. `\-` outside a class): try the permissive legacy syntax.
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new ToolFailure(`regex parse error: ${errorMessage(error)}`);
    }
  }
}

/**
 * A regular file's bytes. A FIFO, socket or device (also one swapped in after the listing) is
 * refused without waiting: reading a FIFO with no writer would block the search forever.
 */
async function readRegularFile(file: string): Promise<Buffer> {
  const handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${file} is not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Searches one file; undefined for a file that is unreadable, binary or too large (skipped, as ripgrep skips binaries). */
async function searchFile(file: string, regex: RegExp, multiline: boolean): Promise<FileMatches | undefined> {
  const buffer = await readRegularFile(file).catch(() => undefined);
  if (buffer === undefined || buffer.length > MAX_FILE_BYTES || looksBinary(buffer)) return undefined;
  const text = buffer.toString('utf8');
  const lines =
    text === '' ? [] : text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  // A final newline ends the last line; it does not start an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const matchedLines = multiline
    ? multilineMatches(text, regex)
    : lines.flatMap((line, index) => (regex.test(line) ? [index] : []));
  return { file, lines, matchedLines, regex };
}

/** Indices of every line touched by a match of `regex` run over the whole text. */
function multilineMatches(text: string, regex: RegExp): number[] {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    lineStarts.push(index + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const touched = new Set<number>();
  const global = new RegExp(regex.source, `${regex.flags}g`);
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    const first = lineOf(match.index);
    const last = lineOf(match.index + Math.max(match[0].length - 1, 0));
    for (let line = first; line <= last; line += 1) touched.add(line);
    if (match[0] === '') global.lastIndex += 1;
  }
  return [...touched].sort((a, b) => a - b);
}
