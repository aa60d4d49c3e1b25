import type { Node } from 'web-tree-sitter';
import type { ShellWord } from './bash-types.js';

/** Nodes that are plain unquoted text (backslash escapes resolved, globs looked for). */
const UNQUOTED = new Set(['word', 'number', 'variable_name', 'test_operator', 'regex', 'file_descriptor']);

/**
 * A piece of a shell word, `start`/`end` being offsets in the command: a syntax-tree node, or
 * unquoted text cut out of a word node that tree-sitter-bash lexed across a blank (`] {`).
 */
export type WordPiece = { readonly start: number; readonly end: number } & (
  { readonly node: Node } | { readonly text: string }
);

/**
 * The pieces of a node that may be part of a word (`source` is the whole command). A concatenation
 * is taken apart (tree-sitter-bash sometimes joins what Bash reads as separate words: the caller
 * groups the pieces again by the blanks between them); a word node with an unescaped blank is cut
 * at its blanks.
 */
function wordPieces(node: Node, source: string): WordPiece[] {
  if (node.type === 'concatenation' || node.type === 'command_name')
    return node.children.flatMap((child) => wordPieces(child, source));
  const text = source.slice(node.startIndex, node.endIndex);
  if (node.type !== 'word' || !hasUnescapedBlank(text))
    return [{ node, start: node.startIndex, end: node.endIndex }];
  const pieces: WordPiece[] = [];
  for (const match of text.matchAll(/(?:\\[\s\S]|[^ \t\\])+/g)) {
    const start = node.startIndex + match.index;
    pieces.push({ text: match[0], start, end: start + match[0].length });
  }
  return pieces;
}

/**
 * The shell words of nodes in source order, each as its pieces: pieces that touch (or meet at a
 * line continuation) are one word, as Bash splits words at blanks.
 */
export function groupWords(nodes: readonly Node[], source: string): WordPiece[][] {
  const groups: WordPiece[][] = [];
  let previous: WordPiece | undefined;
  for (const piece of nodes.flatMap((node) => wordPieces(node, source))) {
    const gap = previous ? source.slice(previous.end, piece.start) : ' ';
    if (/^(?:\\\n)*$/.test(gap)) groups.at(-1)?.push(piece);
    else groups.push([piece]);
    previous = piece;
  }
  return groups;
}

/** Whether unquoted word text has a blank that no backslash escapes. */
function hasUnescapedBlank(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === ' ' || text[index] === '\t') return true;
  }
  return false;
}

/**
 * Builds one shell word from its pieces, in source order, reading their text from `source` (the
 * whole command; node text may hold placeholders). Unknown node types keep their text and count
 * as dynamic.
 */
export function shellWord(pieces: readonly WordPiece[], source: string): ShellWord {
  const builder = new WordBuilder(source);
  pieces.forEach((piece, index) => {
    const next = pieces[index + 1];
    if ('node' in piece) builder.add(piece.node, next && 'node' in next ? next.node : undefined);
    else builder.add(piece.text, undefined);
  });
  const written = source.slice(pieces[0]?.start ?? 0, pieces.at(-1)?.end ?? 0);
  return { value: builder.value, source: written, dynamic: builder.dynamic };
}

class WordBuilder {
  value = '';
  dynamic = false;
  private started = false;
  private openBracket = false;
  private openBrace = false;

  constructor(private readonly source: string) {}

  add(node: Node | string, next: Node | undefined): void {
    if (typeof node === 'string') {
      this.unquoted(node);
      this.started = true;
      return;
    }
    const type = node.type;
    const text = this.textOf(node);
    // `export NAME=value` has its assignment as a word: name, `=` and value, each read on its own.
    if (type === 'concatenation' || type === 'command_name' || type === 'variable_assignment') {
      node.children.forEach((child, index) => this.add(child, node.children[index + 1]));
      return;
    }
    if (UNQUOTED.has(type)) this.unquoted(text);
    else if (type === 'raw_string') this.value += text.slice(1, -1);
    else if (type === 'ansi_c_string') this.value += decodeAnsiC(text.slice(2, -1));
    else if (type === 'string' || type === 'translated_string') this.doubleQuoted(node);
    else if (type === '$') {
      // `$"…"` (a translated string) comes as `$` then a string: the `$` is not part of the value.
      if (next?.type !== 'string') this.value += '$';
    } else if (!node.isNamed) {
      this.unquoted(text); // an operator token of `[ … ]` (`=`, `!`, `(`): literal
    } else {
      // Expansions (`$x`, `${…}`, `$(…)`, `<(…)`, `$((…))`, `{1..3}`) and any node type not known here.
      this.value += text;
      this.dynamic = true;
    }
    this.started = true;
  }

  /** Unquoted text: backslashes escape the next character; `*`, `?`, `[…]`, `{…}` and a leading `~` expand. */
  private unquoted(text: string): void {
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index] as string;
      if (char === '\\') {
        const escaped = text[index + 1];
        if (escaped !== undefined && escaped !== '\n') this.value += escaped;
        index += 1;
        continue;
      }
      // Globs and brace expansion need both brackets unquoted in the word; a lone `[` (the test command) is literal.
      if (char === '*' || char === '?' || (char === '~' && !this.started && index === 0)) this.dynamic = true;
      else if ((char === ']' && this.openBracket) || (char === '}' && this.openBrace)) this.dynamic = true;
      this.openBracket ||= char === '[';
      this.openBrace ||= char === '{';
      this.value += char;
    }
  }

  /** `"…"`: text between the children is content; expansions inside are kept as written. */
  private doubleQuoted(node: Node): void {
    const text = this.textOf(node);
    const open = text.indexOf('"') + 1;
    const close = text.lastIndexOf('"');
    let cursor = open;
    for (const child of node.children) {
      const start = child.startIndex - node.startIndex;
      const end = child.endIndex - node.startIndex;
      if (start < open || end > close) continue;
      this.value += unescapeDoubleQuoted(text.slice(cursor, start));
      if (child.type === 'string_content') this.value += unescapeDoubleQuoted(this.textOf(child));
      else if (child.type === '$') this.value += '$';
      else {
        this.value += this.textOf(child);
        this.dynamic = true;
      }
      cursor = end;
    }
    this.value += unescapeDoubleQuoted(text.slice(cursor, Math.max(cursor, close)));
  }

  private textOf(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, escaped: string) => (escaped === '\n' ? '' : escaped));
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The value of `$'…'` (given without `$'` and `'`): the common escapes, `\xHH` and `\NNN` decoded. */
export function decodeAnsiC(inner: string): string {
  return inner.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (whole, escape: string) => {
    if (escape.startsWith('x') && escape.length > 1)
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return ANSI_C_ESCAPES[escape] ?? whole;
  });
}
