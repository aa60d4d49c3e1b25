/**
 * The Bash reader: what a command line is (its simple commands, words and redirections), which
 * programs it runs behind wrappers, and what it reads, writes and removes. It knows nothing of
 * permission rules or modes; the policy (permissions/) judges these findings. Paths are placed
 * through a {@link PathResolver} the caller passes, so the reader never imports the workspace.
 */
export {
  parseBashCommand,
  readBashCommand,
  type ParsedBashCommand,
  type OutputRedirection,
  type ShellWord,
  type SimpleCommand,
} from './bash-command.js';
export {
  classifyBashCommand,
  GENERIC_BASH_REASON,
  type BashClassification,
  type BashRead,
  type BashWrite,
  type PathPlace,
} from './bash-read-only.js';
export { programName, programsOf, type CommandPrograms, type ProgramRun } from './bash-programs.js';
export { isReadOnlyCommandLine } from './read-only-command.js';
export { READ_ONLY_GIT, READ_ONLY_PROGRAMS, type ProgramFlags } from './read-only-programs.js';
export type { PathResolver } from './path-resolver.js';
export { isSameOrInside } from './path-inside.js';
export { codeReadsOf, writesFromData, type CodeRead } from './code-reads.js';
export { CODE_READERS, type CodeReaderRow } from './code-readers.js';
