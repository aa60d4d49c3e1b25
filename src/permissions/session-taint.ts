import path from 'node:path';
import type { CodeRead } from '../shell/index.js';
import type { TaintChange } from '../session/taint-lines.js';
import { isSameOrInside, realpathLoose } from '../tools/workspace.js';

export type { TaintChange } from '../session/taint-lines.js';

/** What a command runs that this session wrote: the program, and the files (real paths; none when `unknown`). */
export interface TaintedCode {
  readonly program: string;
  readonly files: readonly string[];
  /** A write of unknown destination may have been one of the files the program runs. */
  readonly unknown: boolean;
}

/**
 * The files the model wrote in this session (Write, Edit, MultiEdit, NotebookEdit and what the
 * Bash reader knows a command writes), by real path, minus those a person has since approved a
 * command to run: what an allow rule alone may no longer let a program run as code (see
 * `CODE_READERS`). A hookloop extension; Claude Code keeps no such set.
 */
export class SessionTaint {
  private readonly files = new Set<string>();
  private readonly trees = new Set<string>();
  private unknown = false;

  /** Applies one change (a new write, a person's approval, or a line of a resumed transcript). Returns whether anything changed. */
  apply(change: TaintChange): boolean {
    const before = this.size();
    const wasUnknown = this.unknown;
    if (change.kind === 'wrote') {
      for (const file of change.files) this.files.add(file);
      for (const tree of change.trees ?? []) this.trees.add(tree);
      if (change.unknown === true) this.unknown = true;
      return this.size() !== before || this.unknown !== wasUnknown;
    }
    for (const file of change.files) {
      this.files.delete(file);
      // Approving a file below a copied tree trusts that file, not the rest of the tree.
      for (const tree of this.trees) if (tree === file) this.trees.delete(tree);
    }
    if (change.unknown === true) this.unknown = false;
    return this.size() !== before || this.unknown !== wasUnknown;
  }

  /** True when nothing is tainted (the common case: the check costs nothing then). */
  get empty(): boolean {
    return this.files.size === 0 && this.trees.size === 0 && !this.unknown;
  }

  /**
   * The first program of `reads` that runs a tainted file, or undefined. `hooks` lists the
   * repository's hook directories for reads with `gitHooks`. Never throws.
   */
  taintedIn(reads: readonly CodeRead[], hooks: () => readonly string[]): TaintedCode | undefined {
    if (this.empty) return undefined;
    for (const read of reads) {
      const files = [...this.files, ...this.trees].filter((file) => this.reads(read, file, hooks));
      if (files.length > 0) return { program: read.program, files, unknown: false };
      if (this.unknown && (read.files.length > 0 || read.below !== undefined || read.gitHooks === true))
        return { program: read.program, files: [], unknown: true };
      if (read.anyFile === true && this.files.size + this.trees.size > 0)
        return { program: read.program, files: [...this.files, ...this.trees], unknown: false };
    }
    return undefined;
  }

  private reads(read: CodeRead, tainted: string, hooks: () => readonly string[]): boolean {
    const tree = this.trees.has(tainted);
    const directory = read.directory === undefined ? undefined : realpathLoose(read.directory);
    for (const file of read.files) {
      if (path.isAbsolute(file)) {
        const real = realpathLoose(file);
        if (real === tainted || (tree && isSameOrInside(real, tainted))) return true;
      } else if (tainted === file || tainted.endsWith(`/${file}`) || tree) return true;
    }
    if (read.below !== undefined) {
      if (directory === undefined) {
        if (read.below.test(tainted) || tree) return true;
      } else if (isSameOrInside(tainted, directory)) {
        if (read.below.test(path.relative(directory, tainted).split(path.sep).join('/'))) return true;
      } else if (tree && isSameOrInside(directory, tainted)) return true;
    }
    if (read.gitHooks === true)
      for (const hooksDirectory of hooks()) {
        const real = realpathLoose(hooksDirectory);
        if (isSameOrInside(tainted, real) || (tree && isSameOrInside(real, tainted))) return true;
      }
    return false;
  }

  private size(): number {
    return this.files.size + this.trees.size;
  }
}
