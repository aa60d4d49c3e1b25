import { CommandCollector } from './bash-ast.js';
import { BashSyntaxError, ReadError } from './bash-read-error.js';
import { loadBashParser, loadedBashParser, withBashTree } from './bash-parser.js';
import type { Parser } from 'web-tree-sitter';
import type { OutputRedirection, ShellWord, SimpleCommand } from './bash-types.js';

export type { OutputRedirection, ShellWord, SimpleCommand } from './bash-types.js';

/**
 * A command line split into its simple commands: those joined by `&&`, `||`, `;`, `&`, pipes and
 * newlines, those inside subshells, groups, `if`/`while`/`for`/`case` bodies and function bodies,
 * and those inside `$(…)`, `` `…` ``, `<(…)`, `>(…)`, `$((…))`, `${…}`, unquoted here-documents,
 * and the string of `bash -c '…'` / `sh -c '…'` / `eval …`. Order: inner commands before the command
 * that contains them, otherwise source order. `redirections` holds every output redirection,
 * including those on compound commands (`(cd a; ls) > out.txt`); `inputs` the files of every `<`
 * and `<>` redirection.
 */
export type ParsedBashCommand =
  | {
      readonly ok: true;
      readonly commands: readonly SimpleCommand[];
      readonly redirections: readonly OutputRedirection[];
      readonly inputs: readonly ShellWord[];
    }
  | { readonly ok: false; readonly error: string };

const CACHE_LIMIT = 256;
const cache = new Map<string, Promise<ParsedBashCommand>>();

/**
 * Splits a Bash command line into its simple commands (see `ParsedBashCommand`), from the syntax
 * tree of tree-sitter-bash. A command with a syntax error is reported as `{ ok: false, error }`
 * with an error starting `not valid Bash: `; one whose tree holds something hookloop cannot read
 * with confidence (`time { …; }`, nesting deeper than 500 levels) with `hookloop could not read
 * this command: `. The first call loads the parser (WebAssembly, about 100 ms); if that fails
 * the result says so. Never throws. Results are cached per command string (the last 256).
 */
export function parseBashCommand(command: string): Promise<ParsedBashCommand> {
  const cached = cache.get(command);
  if (cached) return cached;
  const result = loadBashParser().then(
    (parser) => readWith(parser, command),
    (error: unknown) => {
      cache.delete(command); // the next call tries to load the parser again
      return { ok: false as const, error: `hookloop could not load its Bash parser: ${errorText(error)}` };
    },
  );
  cache.set(command, result);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return result;
}

/**
 * `parseBashCommand` without the cache, synchronously. The parser must be loaded already (any
 * `parseBashCommand` call loads it); before that the result is `{ ok: false }` saying so. Never throws.
 */
export function readBashCommand(command: string): ParsedBashCommand {
  const parser = loadedBashParser();
  if (!parser)
    return {
      ok: false,
      error:
        'hookloop could not read this command: its Bash parser is not loaded yet (parseBashCommand loads it)',
    };
  return readWith(parser, command);
}

function readWith(parser: Parser, command: string): ParsedBashCommand {
  try {
    const collector = new CommandCollector(command, parser);
    const result = withBashTree(parser, command, (root, backquotes) => collector.read(root, backquotes));
    if (!result.ok) return { ok: false, error: `not valid Bash: ${result.error}` };
    return {
      ok: true,
      commands: collector.commands,
      redirections: collector.redirections,
      inputs: collector.inputs,
    };
  } catch (error) {
    if (error instanceof BashSyntaxError) return { ok: false, error: `not valid Bash: ${error.message}` };
    const reason = error instanceof ReadError ? error.message : `unexpected error: ${errorText(error)}`;
    return { ok: false, error: `hookloop could not read this command: ${reason}` };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
