import fs from 'node:fs';
import path from 'node:path';

/**
 * The directories file tools may touch: the project directory plus every `--add-dir`.
 * Paths are compared after resolving symlinks (of the longest existing prefix, so a path to a
 * file that does not exist yet still resolves through a symlinked parent).
 */
export class Workspace {
  readonly projectDir: string;
  readonly roots: readonly string[];

  /** @param projectDir absolute project directory; @param additionalDirs absolute or project-relative extra roots. */
  constructor(projectDir: string, additionalDirs: readonly string[] = []) {
    this.projectDir = path.resolve(projectDir);
    this.roots = [this.projectDir, ...additionalDirs.map((dir) => path.resolve(this.projectDir, dir))].map(realpathLoose);
  }

  /** True when `absolutePath` (symlinks resolved) is inside one of the roots. */
  contains(absolutePath: string): boolean {
    const real = realpathLoose(absolutePath);
    return this.roots.some((root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
  }
}

/** realpath of the longest existing prefix, with the missing tail appended; never throws. */
export function realpathLoose(target: string): string {
  const absolute = path.resolve(target);
  let existing = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...tail);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      tail.unshift(path.basename(existing));
      existing = parent;
    }
  }
}
