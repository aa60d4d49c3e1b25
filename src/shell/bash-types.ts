/**
 * The words, redirections and simple commands a Bash command line is read into: the types the
 * reader's files share (kept apart from bash-command.ts, which imports the reader, so no file
 * imports the file that imports it).
 */

/** One word of a simple command. */
export interface ShellWord {
  /** The word with quotes removed and escapes resolved; expansions (`$x`, `$(…)`, `` `…` ``) kept as written. */
  readonly value: string;
  /** The word exactly as written. */
  readonly source: string;
  /**
   * True when the shell may turn the word into something other than `value`: parameter or command
   * substitution, process substitution, an unquoted glob (`*`, `?`, `[`), brace expansion or a leading `~`.
   */
  readonly dynamic: boolean;
}

/** A redirection that writes a file: `>`, `>|`, `&>`, `<>`, `>&file` count as `>`; `>>`, `&>>` as `>>`. */
export interface OutputRedirection {
  readonly operator: '>' | '>>';
  /** The target word's value (quotes removed), as written: not resolved against any directory. */
  readonly target: string;
  /** True when the target holds an expansion, so the path it names is not known before the command runs. */
  readonly dynamic: boolean;
}

/** One simple command (`program arg…`) found anywhere in a command line. */
export interface SimpleCommand {
  /** The command's source text, from its first to its last token (assignments and redirections included). */
  readonly text: string;
  /** Its words without the leading `NAME=value` assignments: `words[0]` is the program. */
  readonly words: readonly string[];
  /** The same words with their source text and whether they expand. */
  readonly argv: readonly ShellWord[];
  /** Leading `NAME=value` assignments, as written. */
  readonly assignments: readonly string[];
  /** This command's own output redirections. */
  readonly redirections: readonly OutputRedirection[];
  /**
   * Set on a stand-in for code Bash may run that no word spells (a value evaluated as arithmetic,
   * `${!x}`, `${x@P}`, an unreadable `bash -c` script): why. Its one word is dynamic, so it is
   * treated as a computed program name.
   */
  readonly unknown?: string;
}

/**
 * A path a program run writes, as a word (resolved by the caller), or `undefined` when it cannot be
 * known before the command runs. `tree`: anything below the path may be written too (`cp -r`, `mv`).
 */
export interface WrittenWord {
  readonly word: ShellWord | undefined;
  readonly tree?: boolean;
  /** Joined under `word` (a directory): `cp a.txt dir` writes `dir/a.txt`. */
  readonly child?: string;
}
