import fs from 'node:fs';
import path from 'node:path';

/**
 * Facts a transcript line records about where it was written: the git branch of the working
 * directory and hookloop's version. Both are read from files (no `git` process per line).
 */

/**
 * The current git branch of `directory`, read from the nearest `.git/HEAD` (a `.git` file of a
 * worktree or submodule is followed); `HEAD` when detached or outside a repository, as Claude Code writes.
 */
export function gitBranch(directory: string): string {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const head = readHead(path.join(current, '.git'));
    if (head !== undefined) return /^ref: refs\/heads\/(.+)$/.exec(head)?.[1] ?? 'HEAD';
    if (path.dirname(current) === current) return 'HEAD';
  }
}

function readHead(gitPath: string): string | undefined {
  try {
    const stat = fs.statSync(gitPath);
    if (stat.isDirectory()) return fs.readFileSync(path.join(gitPath, 'HEAD'), 'utf8').trim();
    const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(gitPath, 'utf8'))?.[1];
    return pointer
      ? fs.readFileSync(path.join(path.resolve(path.dirname(gitPath), pointer.trim()), 'HEAD'), 'utf8').trim()
      : undefined;
  } catch {
    return undefined; // no repository here: keep looking upwards
  }
}

let cachedVersion: string | undefined;

/** hookloop's version from its package.json (found from the source or the built file), `0.0.0` when unreadable. */
export function hookloopVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const manifest = JSON.parse(fs.readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'hookloop' && typeof manifest.version === 'string')
        return (cachedVersion = manifest.version);
    } catch {
      continue; // not at this level (source vs dist layout)
    }
  }
  return (cachedVersion = '0.0.0');
}
