import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readFrontMatter } from '../markdown/front-matter.js';
import { describeError } from '../errors.js';
import { memoryImports } from './memory-imports.js';

/** Who wrote a memory file, as InstructionsLoaded's `memory_type` says it. */
export type MemoryType = 'Managed' | 'User' | 'Project' | 'Local';

/** One memory file that reaches the model, with why it was loaded (InstructionsLoaded's fields). */
export interface MemoryFile {
  /** Absolute path, as found (not resolved through links). */
  readonly path: string;
  readonly memoryType: MemoryType;
  /** `session_start` for the files found at start, `include` for an `@path` import. */
  readonly loadReason: 'session_start' | 'include';
  /** The file whose `@path` imported this one (`include` only). */
  readonly parentPath?: string;
  /** The text the model reads: the file without its front matter, trimmed. */
  readonly content: string;
}

/** A rules file with `paths:` front matter: it applies only to files matching its globs, so it is not loaded at start. */
export interface ScopedRule {
  readonly path: string;
  readonly memoryType: MemoryType;
  readonly globs: readonly string[];
  /** The folder the globs are relative to (the one holding `.claude/rules`). */
  readonly baseDir: string;
  readonly content: string;
}

/** Where memory is looked for. */
export interface MemoryOptions {
  /** The working directory: project files are read from the filesystem root down to here. */
  readonly cwd: string;
  /** The user's config folder (`~/.claude`, or CLAUDE_CONFIG_DIR). */
  readonly configDir: string;
  /** Home, for `@~/…` imports; default os.homedir(). */
  readonly homeDir?: string;
  /** The managed policy file; default the platform's (`/etc/claude-code/CLAUDE.md` on Linux). */
  readonly managedFile?: string;
}

/** What loadMemory found. */
export interface LoadedMemory {
  /** In the order the model reads them: managed, user, user rules, then per folder from the root down (CLAUDE.md, .claude/CLAUDE.md, its rules, CLAUDE.local.md); each file's imports right after it. */
  readonly files: readonly MemoryFile[];
  readonly scopedRules: readonly ScopedRule[];
  /** One line per file that exists but could not be read (naming the file and why). */
  readonly warnings: readonly string[];
}

/** Imports nest at most this deep: a memory file found at start is level 0, its imports level 1, … */
export const MAX_IMPORT_DEPTH = 4;

/**
 * Finds the memory files of a session in Claude Code's order and precedence (later files are read
 * later, so their instructions win a conflict). A file is read once even when two places name it
 * (compared by real path). Imports from project and local files that point outside `cwd` are not
 * followed (Claude Code asks before it loads such files; a headless run cannot ask). Missing files and
 * imports are skipped silently; a file that exists but cannot be read is a warning. Never throws.
 */
export function loadMemory(options: MemoryOptions): LoadedMemory {
  const homeDir = options.homeDir ?? os.homedir();
  const files: MemoryFile[] = [];
  const scopedRules: ScopedRule[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const cwd = path.resolve(options.cwd);

  const add = (file: string, memoryType: MemoryType, depth = 0, parentPath?: string): void => {
    const text = readOnce(file, seen, warnings);
    if (text !== undefined) include(file, text, memoryType, depth, parentPath);
  };
  const include = (
    file: string,
    text: string,
    memoryType: MemoryType,
    depth: number,
    parentPath?: string,
  ): void => {
    const content = stripFrontMatter(text, file);
    files.push({
      path: file,
      memoryType,
      loadReason: depth === 0 ? 'session_start' : 'include',
      ...(parentPath !== undefined ? { parentPath } : {}),
      content,
    });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const target of memoryImports(content, file, homeDir)) {
      if ((memoryType === 'Project' || memoryType === 'Local') && !isInside(target, cwd)) continue;
      add(target, memoryType, depth + 1, file);
    }
  };
  const addRules = (rulesDir: string, baseDir: string, memoryType: MemoryType): void => {
    for (const file of markdownFiles(rulesDir)) {
      const text = readOnce(file, seen, warnings);
      if (text === undefined) continue;
      const globs = ruleGlobs(text, file);
      if (globs.length > 0)
        scopedRules.push({ path: file, memoryType, globs, baseDir, content: stripFrontMatter(text, file) });
      else include(file, text, memoryType, 0);
    }
  };

  add(options.managedFile ?? managedMemoryFile(), 'Managed');
  add(path.join(options.configDir, 'CLAUDE.md'), 'User');
  addRules(path.join(options.configDir, 'rules'), homeDir, 'User');
  for (const dir of ancestorsDownTo(cwd)) {
    add(path.join(dir, 'CLAUDE.md'), 'Project');
    add(path.join(dir, '.claude', 'CLAUDE.md'), 'Project');
    addRules(path.join(dir, '.claude', 'rules'), dir, 'Project');
    add(path.join(dir, 'CLAUDE.local.md'), 'Local');
  }
  return { files, scopedRules, warnings };
}

/** The managed policy memory file of this platform (an administrator's, for every user). */
export function managedMemoryFile(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/CLAUDE.md';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\CLAUDE.md';
  return '/etc/claude-code/CLAUDE.md';
}

/** `/`, `/a`, `/a/b` for `/a/b`. */
function ancestorsDownTo(dir: string): string[] {
  const chain: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    chain.unshift(current);
    if (path.dirname(current) === current) return chain;
  }
}

/** The file's text the first time its real path is seen; undefined when missing, a folder, already read, or unreadable (a warning). */
function readOnce(file: string, seen: Set<string>, warnings: string[]): string | undefined {
  let real: string;
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    real = fs.realpathSync(file);
  } catch {
    return undefined; // no such file: nothing to load
  }
  if (seen.has(real)) return undefined;
  try {
    const text = fs.readFileSync(file, 'utf8');
    seen.add(real);
    return text;
  } catch (error) {
    warnings.push(`${file}: memory file not loaded: ${describeError(error)}`);
    return undefined;
  }
}

/** The `*.md` files under `dir`, subfolders included, sorted by path (none when it does not exist). */
function markdownFiles(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (entry.name.endsWith('.md') && (entry.isFile() || entry.isSymbolicLink())) out.push(full);
  }
  return out;
}

/** The body without front matter, trimmed; a file whose front matter does not parse is kept whole. */
function stripFrontMatter(text: string, file: string): string {
  try {
    return readFrontMatter(text, file).body;
  } catch {
    return text.trim();
  }
}

/** A rules file's `paths:` globs (a list or one comma-separated string); none when it has no such field. */
function ruleGlobs(text: string, file: string): string[] {
  let fields: Record<string, unknown>;
  try {
    fields = readFrontMatter(text, file).fields;
  } catch {
    return [];
  }
  const value = fields['paths'];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
