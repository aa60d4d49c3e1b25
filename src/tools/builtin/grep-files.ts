import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { glob as findFiles } from 'tinyglobby';
import { ToolFailure } from '../define-tool.js';
import { defaultIgnores } from './glob.js';
import { errorMessage } from './read.js';

// Which files Grep searches: the `path` target, filtered by `glob` and ripgrep-style `type`.

/** ripgrep's built-in file types most models ask for (a subset of `rg --type-list`). */
const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.c++', '*.hpp', '*.hh', '*.hxx', '*.h', '*.inl'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  go: ['*.go'],
  html: ['*.html', '*.htm', '*.xhtml'],
  java: ['*.java'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  json: ['*.json', '*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  md: ['*.md', '*.markdown', '*.mdx'],
  markdown: ['*.md', '*.markdown', '*.mdx'],
  php: ['*.php'],
  py: ['*.py', '*.pyi'],
  python: ['*.py', '*.pyi'],
  rb: ['*.rb', '*.gemspec', 'Gemfile', 'Rakefile'],
  ruby: ['*.rb', '*.gemspec', 'Gemfile', 'Rakefile'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh', '.bashrc', '.zshrc', '.profile'],
  sql: ['*.sql'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  typescript: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  xml: ['*.xml', '*.xsd', '*.xsl'],
  yaml: ['*.yaml', '*.yml'],
};

/**
 * The files to search: the target itself when it is a file, else every file under it that passes `glob`/`type`.
 * @throws ToolFailure when the target does not exist, the type is unknown or listing fails.
 */
export async function listFiles(
  target: string,
  input: { glob?: string | undefined; type?: string | undefined },
  signal: AbortSignal,
): Promise<{ files: string[]; singleFile: boolean }> {
  const stats = await fs.stat(target).catch(() => undefined);
  if (stats === undefined) throw new ToolFailure(`Path does not exist: ${target}`);
  // A FIFO, socket or device is not searched (a FIFO with no writer would block forever).
  if (!stats.isDirectory()) return { files: stats.isFile() ? [target] : [], singleFile: true };
  const accepts = fileFilter(input);
  let files: string[];
  try {
    files = await findFiles('**', {
      cwd: target,
      absolute: true,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: defaultIgnores(input.glob ?? '', target),
      signal,
    });
  } catch (error) {
    throw new ToolFailure(`Grep failed: ${errorMessage(error)}`);
  }
  return {
    files: files.filter((file) => accepts(path.relative(target, file).split(path.sep).join('/'))),
    singleFile: false,
  };
}

/**
 * The `glob` and `type` filters as one predicate over a path relative to the searched directory.
 * `glob` is split on whitespace and on commas outside braces (`"*.ts,*.tsx"`, `"*.{ts,tsx}"`).
 */
function fileFilter(input: {
  glob?: string | undefined;
  type?: string | undefined;
}): (relativePath: string) => boolean {
  const compile = (pattern: string) => picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
  const globs = (input.glob ?? '')
    .split(/\s+/)
    .flatMap(splitOutsideBraces)
    .filter((pattern) => pattern !== '');
  const include = globs.filter((pattern) => !pattern.startsWith('!')).map(compile);
  const exclude = globs
    .filter((pattern) => pattern.startsWith('!'))
    .map((pattern) => compile(pattern.slice(1)));
  let typeMatchers: ((file: string) => boolean)[] = [];
  if (input.type !== undefined) {
    const extensions = FILE_TYPES[input.type];
    if (extensions === undefined) throw new ToolFailure(`unrecognized file type: ${input.type}`);
    typeMatchers = extensions.map(compile);
  }
  return (file) =>
    (include.length === 0 || include.some((matches) => matches(file))) &&
    !exclude.some((matches) => matches(file)) &&
    (typeMatchers.length === 0 || typeMatchers.some((matches) => matches(file)));
}

function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '{') depth += 1;
    if (character === '}') depth = Math.max(0, depth - 1);
    if (character === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts;
}
