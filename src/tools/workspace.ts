import fs from 'node:fs';
import path from 'node:path';
import type { PathResolver } from '../shell/index.js';
import { isSameOrInside } from '../shell/index.js';

/**
 * The directories file tools may touch: the project directory plus every `--add-dir`.
 * Paths are compared by real path (see {@link realpathLoose}): a symlinked alias of a root, a link
 * inside a root that points out of it, and a dangling link are all judged by where they lead.
 */
export class Workspace implements PathResolver {
  readonly projectDir: string;
  readonly roots: readonly string[];

  /** @param projectDir absolute project directory; @param additionalDirs absolute or project-relative extra roots. */
  constructor(projectDir: string, additionalDirs: readonly string[] = []) {
    this.projectDir = path.resolve(projectDir);
    this.roots = [this.projectDir, ...additionalDirs.map((dir) => path.resolve(this.projectDir, dir))].map(
      realpathLoose,
    );
  }

  /** True when `absolutePath` (symlinks resolved) is inside one of the roots. */
  contains(absolutePath: string): boolean {
    const real = realpathLoose(absolutePath);
    return this.roots.some((root) => isSameOrInside(real, root));
  }

  /** Where `target` really leads for a write (see {@link realpathLoose}). Never throws. */
  realPath(target: string): string {
    return realpathLoose(target);
  }
}

/** True when absolute `file` is `directory` or below it (both resolved alike); the shell's rule. */
export { isSameOrInside };

/** Symlinks followed before giving up, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

/**
 * Where `target` really leads, as the kernel would resolve it for a write: every symlink on the
 * way is followed, a dangling one included (its target is where a write through it would create
 * the file), `..` is applied after the link before it is resolved (as the kernel does), and the
 * part that does not exist yet is appended as written. Relative paths resolve against the process
 * cwd. Never throws; on a symlink loop the path is returned normalized (a write through it fails
 * with ELOOP anyway).
 */
export function realpathLoose(target: string): string {
  const absolute = path.isAbsolute(target) ? target : path.join(process.cwd(), target);
  try {
    return fs.realpathSync.native(absolute); // the common case: everything exists
  } catch {
    return walkLinks(absolute);
  }
}

function walkLinks(absolute: string): string {
  const pending = splitPath(absolute);
  let resolved = path.parse(absolute).root;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.' || part === '') continue;
    if (part === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, part);
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(candidate);
    } catch {
      // Nothing more exists: the rest is what a write would create, resolved as written.
      return path.join(candidate, ...pending);
    }
    if (!stats.isSymbolicLink()) {
      resolved = candidate;
      continue;
    }
    if (++links > MAX_LINKS) return path.resolve(absolute);
    let link: string;
    try {
      link = fs.readlinkSync(candidate);
    } catch {
      return path.join(candidate, ...pending);
    }
    if (path.isAbsolute(link)) resolved = path.parse(link).root;
    pending.unshift(...splitPath(link));
  }
  return resolved;
}

function splitPath(text: string): string[] {
  return text.split(path.sep).filter((part) => part !== '');
}
