import type { Node, Parser, Tree } from 'web-tree-sitter';

// tree-sitter-bash often ends a backquoted command in the wrong place (`echo `a` `b`` is read as
// one substitution; a space after the opening backquote, or a `#` inside, derails it). Bash ends
// it at the first unescaped backquote, whatever quotes are inside. The tree does find where each
// one starts, so each is replaced, in source order, by a placeholder of the same length that
// tree-sitter-bash reads as a plain expansion (`$___…`), and the text is parsed again. The scripts
// between the backquotes are read on their own.

const MAX_BACKQUOTES = 100;

/** A tree of a command whose backquoted commands are placeholders, with the scripts they stood for by offset. */
export interface BackquotedTree {
  readonly tree: Tree;
  /** The script between each pair of backquotes (escapes resolved), by the offset of its opening backquote. */
  readonly backquotes: ReadonlyMap<number, string>;
}

/**
 * Parses `source` with its backquoted commands replaced (see above). Returns an error for an
 * unterminated backquote or more than 100 of them. The caller deletes the tree.
 */
export function parseWithBackquotes(parser: Parser, source: string): BackquotedTree | { error: string } {
  let text = source;
  const backquotes = new Map<number, string>();
  for (;;) {
    const tree = parser.parse(text);
    if (!tree) return { error: 'tree-sitter-bash returned no tree' };
    const start = firstBackquote(tree.rootNode);
    if (start === undefined) return { tree, backquotes };
    tree.delete();
    const end = closingBackquote(source, start);
    if (end === undefined) return { error: `syntax error: unterminated backquote at offset ${start}` };
    if (backquotes.size >= MAX_BACKQUOTES)
      return { error: `more than ${MAX_BACKQUOTES} backquoted commands` };
    backquotes.set(start, backquotedScript(source.slice(start, end + 1)));
    text = text.slice(0, start) + '$'.padEnd(end + 1 - start, '_') + text.slice(end + 1);
  }
}

/**
 * The offset of the first backquote token in source order (`` ` ` `` is one token), also inside an
 * error: the first one Bash sees opens a command. Quoted and escaped backquotes are no tokens.
 */
function firstBackquote(root: Node): number | undefined {
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeType === '``' || cursor.nodeType === '`')
        return cursor.startIndex + cursor.currentNode.text.indexOf('`');
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return undefined;
    }
  } finally {
    cursor.delete();
  }
}

/** The offset of the backquote that closes the one at `start`: the next one no backslash escapes. */
function closingBackquote(source: string, start: number): number | undefined {
  for (let index = start + 1; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1;
    else if (source[index] === '`') return index;
  }
  return undefined;
}

/**
 * The script between a pair of backquotes, as the shell reads it: `` \` ``, `\\` and `\$` lose
 * their backslash (so a nested `` \`…\` `` is found when the script is parsed).
 */
export function backquotedScript(text: string): string {
  return text.slice(1, -1).replace(/\\([`$\\])/g, '$1');
}

/**
 * The backquoted scripts in the text of an unquoted here-document, where tree-sitter-bash reads
 * `$(…)` but leaves `` `…` `` as text. Returns undefined for an unterminated backquote.
 */
export function backquotedScriptsIn(text: string): string[] | undefined {
  const scripts: string[] = [];
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '`') {
      const end = closingBackquote(text, index);
      if (end === undefined) return undefined;
      scripts.push(backquotedScript(text.slice(index, end + 1)));
      index = end;
    }
  }
  return scripts;
}
