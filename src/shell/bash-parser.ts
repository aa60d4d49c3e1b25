import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { Node, Parser } from 'web-tree-sitter';
import { parseWithBackquotes } from './bash-backquotes.js';
import { isMissingNameAfterAssignment } from './bash-tree-quirks.js';

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/**
 * Loads tree-sitter-bash (the grammar's WebAssembly build, run by web-tree-sitter) once per
 * process; later calls share the same parser. Rejects when the WebAssembly files cannot be loaded;
 * a later call then tries again.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    // V8 first compiles WebAssembly with its baseline compiler (Liftoff), then recompiles the hot
    // functions of the 1.3 MB grammar with TurboFan on background threads. On this 2-core class of
    // machine that recompile stalled the first Bash call by 0.7–5 s (the shell had exited; its
    // exit was handled only after the recompile) and made later parses no faster: measured, a
    // classification takes 0.16 ms with Liftoff only against 0.35 ms with tier-up. So this process
    // stays on Liftoff; set before the first module is compiled, as V8 reads the flag there.
    v8.setFlagsFromString('--liftoff-only');
    // Imported here, not at the top: a run whose model never calls Bash needs no grammar.
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const grammar = grammarFile();
    const parser = new Parser();
    parser.setLanguage(await Language.load(grammar));
    loaded = parser;
    return parser;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Where the grammar is: the bundled CLI ships it beside its code; the library (`dist/src/shell/`)
 * and the sources (`src/shell/`) find the package's `grammars/` folder two or three levels up.
 */
function grammarFile(): string {
  for (const relative of ['./', '../../grammars/', '../../../grammars/']) {
    const candidate = fileURLToPath(new URL(`${relative}tree-sitter-bash.wasm`, import.meta.url));
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('the Bash grammar tree-sitter-bash.wasm is missing from the package (grammars/)');
}

/** The parser once `loadBashParser()` has resolved, else undefined. */
export function loadedBashParser(): Parser | undefined {
  return loaded;
}

/**
 * Parses `source` (its backquoted commands as placeholders: see `parseWithBackquotes`) and hands
 * the tree to `read`, freeing it afterwards (trees live in WebAssembly memory). Node offsets are
 * offsets in `source`; node text may hold placeholders, so read text from `source`. Returns
 * `{ ok: false, error }` describing the first syntax error when tree-sitter-bash had to recover
 * from one: hookloop never reads a guessed tree.
 */
export function withBashTree<T>(
  parser: Parser,
  source: string,
  read: (root: Node, backquotes: ReadonlyMap<number, string>) => T,
): { ok: true; value: T } | { ok: false; error: string } {
  const parsed = parseWithBackquotes(parser, source);
  if ('error' in parsed) return { ok: false, error: parsed.error };
  const { tree, backquotes } = parsed;
  try {
    const problem = tree.rootNode.hasError ? firstSyntaxError(tree.rootNode) : undefined;
    if (problem) return { ok: false, error: describe(problem, source) };
    return { ok: true, value: read(tree.rootNode, backquotes) };
  } finally {
    tree.delete();
  }
}

/** The first ERROR or MISSING node, in source order, that is not one tolerated below. */
function firstSyntaxError(node: Node): Node | undefined {
  if (node.isError || (node.isMissing && !isMissingNameAfterAssignment(node))) return node;
  if (!node.hasError) return undefined;
  for (const child of node.children) {
    const found = firstSyntaxError(child);
    if (found) return found;
  }
  return undefined;
}

function describe(node: Node, source: string): string {
  const where = `line ${node.startPosition.row + 1}, column ${node.startPosition.column + 1}`;
  if (node.isMissing)
    return `syntax error: expected ${node.type === 'word' ? 'a word' : JSON.stringify(node.type)} at ${where}`;
  const whole = source.slice(node.startIndex, node.endIndex);
  const text = whole.length > 24 ? `${whole.slice(0, 24)}…` : whole;
  return text === '' ? `syntax error at ${where}` : `syntax error near ${JSON.stringify(text)} at ${where}`;
}
