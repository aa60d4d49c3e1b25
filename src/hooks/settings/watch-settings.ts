import fs from 'node:fs';
import path from 'node:path';

/**
 * Watches settings files during a session and reports each change of content once.
 *
 * How: `fs.watch` on each file's directory rather than on the file, because editors save by
 * writing a new file and renaming it over the old one (a watch on the old inode would go silent).
 * A directory that does not exist yet is waited for through its nearest existing ancestor. Events
 * are debounced per file and then compared by content, so a save that fires several events, a
 * touch, or a rewrite with the same text reports nothing or one change. Where `fs.watch` cannot be
 * used (e.g. no inotify watches left) the file is polled with `fs.watchFile` instead.
 */

/**
 * - `debounceMs`: quiet time after the last event before the file is read (default 100).
 * - `onChange(file)`: the file's content differs from the last content seen (a file that appears
 *   or disappears counts). Called at most once per debounce window per file. Must not throw.
 * - `pollIntervalMs`: interval of the polling fallback (default 500).
 */
export interface WatchFilesOptions {
  readonly debounceMs?: number;
  readonly pollIntervalMs?: number;
  readonly onChange: (file: string) => void;
}

/** Stops watching; calling it twice is harmless. */
export interface FileWatch {
  close(): void;
}

const DEFAULT_DEBOUNCE_MS = 100;
const DEFAULT_POLL_MS = 500;

/**
 * Starts watching `files` (absolute paths; they need not exist). Their current contents are the
 * baseline: only later changes are reported. Watchers and timers never keep the process alive.
 */
export function watchFiles(files: readonly string[], options: WatchFilesOptions): FileWatch {
  return new SettingsWatch([...new Set(files)], options);
}

class SettingsWatch implements FileWatch {
  private readonly contents = new Map<string, string | undefined>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly polled = new Set<string>();
  private closed = false;

  constructor(
    files: readonly string[],
    private readonly options: WatchFilesOptions,
  ) {
    for (const file of files) this.contents.set(file, readText(file));
    for (const dir of new Set(files.map((file) => path.dirname(file)))) this.watchDirectory(dir);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const file of this.polled) fs.unwatchFile(file);
    this.polled.clear();
  }

  /** Watches `dir` for its files, or its nearest existing ancestor until `dir` appears. */
  private watchDirectory(dir: string): void {
    if (this.closed) return;
    const existing = nearestExistingDirectory(dir);
    const waiting = existing !== dir;
    const key = `${dir}\0${existing}`;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(existing, { persistent: false }, (_type, name) => {
        if (waiting) {
          // A directory on the way to `dir` (or `dir` itself) appeared: move the watch closer.
          if (nearestExistingDirectory(dir) !== existing) this.rearm(dir, key);
          return;
        }
        for (const file of this.filesIn(dir))
          if (name === null || name === path.basename(file)) this.schedule(file);
      });
    } catch {
      this.filesIn(dir).forEach((file) => this.poll(file));
      return;
    }
    // The directory itself went away (or the watch broke): wait for it again from an ancestor.
    watcher.on('error', () => {
      watcher.close();
      this.watchers.delete(key);
      if (!this.closed) this.watchDirectory(dir);
    });
    this.watchers.set(key, watcher);
    // Created between our check and the watch: look now rather than wait for an event that came too early.
    if (waiting && nearestExistingDirectory(dir) !== existing) this.rearm(dir, key);
  }

  /** More of the path to `dir` exists now: watch from there and look at its files, which may have been written already. */
  private rearm(dir: string, key: string): void {
    this.watchers.get(key)?.close();
    this.watchers.delete(key);
    this.watchDirectory(dir);
    this.filesIn(dir).forEach((file) => this.schedule(file));
  }

  private filesIn(dir: string): string[] {
    return [...this.contents.keys()].filter((file) => path.dirname(file) === dir);
  }

  private poll(file: string): void {
    if (this.polled.has(file)) return;
    this.polled.add(file);
    fs.watchFile(file, { interval: this.options.pollIntervalMs ?? DEFAULT_POLL_MS, persistent: false }, () =>
      this.schedule(file),
    );
  }

  private schedule(file: string): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(file));
    const timer = setTimeout(() => this.check(file), this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    timer.unref();
    this.timers.set(file, timer);
  }

  private check(file: string): void {
    this.timers.delete(file);
    if (this.closed) return;
    const text = readText(file);
    if (text === this.contents.get(file)) return;
    this.contents.set(file, text);
    this.options.onChange(file);
  }
}

/** The file's text; undefined when it cannot be read (missing, a directory, no permission). */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function nearestExistingDirectory(dir: string): string {
  let current = dir;
  while (!isDirectory(current)) {
    const parent = path.dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  return current;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
