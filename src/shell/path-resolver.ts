/**
 * What the Bash reader needs to know about the filesystem to place the paths a command names: the
 * working directories and how a path really resolves. The reader never decides what is allowed;
 * it only reports where each path leads, and the policy judges that. `Workspace` (tools/) is the
 * implementation hookloop passes.
 *
 * Contract: every member is synchronous, pure but for reading the filesystem, and never throws.
 */
export interface PathResolver {
  /** The absolute project directory (not resolved through symlinks). */
  readonly projectDir: string;
  /** The working directories, absolute real paths: the project directory first, then each added one. */
  readonly roots: readonly string[];
  /** True when `absolutePath`, symlinks resolved, is one of `roots` or below one. */
  contains(absolutePath: string): boolean;
  /**
   * Where `target` really leads for a write: every symlink followed (a dangling one too), the part
   * that does not exist yet appended as written. A relative `target` resolves against the process cwd.
   */
  realPath(target: string): string;
}
