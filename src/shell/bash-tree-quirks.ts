import type { Node } from 'web-tree-sitter';
import { ReadError } from './bash-read-error.js';
import type { OutputRedirection, ShellWord } from './bash-types.js';
import type { WordPiece } from './bash-words.js';

// Where tree-sitter-bash's tree differs from how Bash reads the same text. Each difference found
// is either corrected here or reported as unreadable (never guessed), so that no command or
// output redirection is missed.

/** Reserved words: Bash does not take them as a program name, tree-sitter-bash does (`fi x`). */
export const RESERVED: ReadonlySet<string> = new Set([
  '!',
  '{',
  '}',
  '[[',
  ']]',
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'do',
  'done',
  'for',
  'select',
  'in',
  'case',
  'esac',
  'function',
  'time',
  'coproc',
]);

const COMPOUND_OPENERS = new Set([
  '{',
  '(',
  '((',
  '[[',
  'if',
  'for',
  'select',
  'while',
  'until',
  'case',
  'function',
  '!',
]);

/**
 * How many leading words of a command are the reserved words `time` (with `-p` and `--`), `coproc`, and a
 * `!` after them, which tree-sitter-bash reads as a program name: as in Bash, the command is the
 * words after them. Only for a command whose first token is a word. Throws `ReadError` before a
 * compound command (`time { …; }`): the tree does not say where that ends.
 */
export function keywordWords(argv: readonly ShellWord[]): number {
  let skipped = 0;
  let last: string | undefined;
  for (;;) {
    const word = argv[skipped]?.source;
    if (word !== 'time' && word !== 'coproc' && !(word === '!' && last !== undefined)) break;
    last = word;
    skipped += 1;
    // Bash's grammar: `time [-p] [--]` (TIMEOPT, then TIMEIGN), as written, unquoted.
    if (word === 'time' && argv[skipped]?.source === '-p') skipped += 1;
    if (word === 'time' && argv[skipped]?.source === '--') skipped += 1;
  }
  // `coproc NAME { …; }` names the coprocess first.
  const opener = argv
    .slice(skipped, last === 'coproc' ? skipped + 2 : skipped + 1)
    .find((word) => COMPOUND_OPENERS.has(word.source));
  if (last !== undefined && opener) throw new ReadError(`"${last}" before a compound command`);
  return skipped;
}

/**
 * Whether `node` is the program name tree-sitter-bash marks missing after `x=1 >file` or
 * `x=$(cmd) 2>/dev/null`. Bash runs such a line (the assignments, then the redirections): it is
 * read as a command without words, not as a syntax error.
 */
export function isMissingNameAfterAssignment(node: Node): boolean {
  const name = node.parent;
  const command = name?.parent;
  if (!node.isMissing || name?.type !== 'command_name' || command?.type !== 'command') return false;
  return (
    name.startIndex === command.endIndex &&
    command.children.some((child) => child.type === 'variable_assignment')
  );
}

const EXPRESSIONS = new Set([
  'unary_expression',
  'binary_expression',
  'parenthesized_expression',
  'postfix_expression',
  'ternary_expression',
]);
const TEST_REDIRECTS = new Set(['>', '>>', '<']);

/**
 * The leaf nodes of a `[ … ]` test, brackets and operators included, in source order: Bash runs
 * `[` as a simple command, tree-sitter-bash parses its arguments as an expression (and takes
 * `[ a > b ]`, which writes the file `b`, for a comparison).
 */
export function testCommandPieces(node: Node): Node[] {
  return node.children.flatMap((child) => (EXPRESSIONS.has(child.type) ? testCommandPieces(child) : [child]));
}

/**
 * The words and output redirections of `[ … ]` from its word groups (see `testCommandPieces`): an
 * unquoted `>`, `>>` or `<` is a redirection, also where it touches a word (`[ a >b ]`).
 */
export function readTestCommand(
  groups: readonly WordPiece[][],
  word: (group: readonly WordPiece[]) => ShellWord,
): { words: ShellWord[]; outputs: OutputRedirection[] } {
  const isRedirect = (piece: WordPiece): boolean =>
    'node' in piece && !piece.node.isNamed && TEST_REDIRECTS.has(piece.node.type);
  const parts = groups.flatMap((group) => splitAround(group, isRedirect));
  const words: ShellWord[] = [];
  const outputs: OutputRedirection[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as WordPiece[];
    const operator =
      part.length === 1 && part[0] && 'node' in part[0] && isRedirect(part[0])
        ? part[0].node.type
        : undefined;
    const target = operator === undefined ? undefined : parts[index + 1];
    if (operator === undefined || target === undefined) {
      words.push(word(part));
      continue;
    }
    index += 1;
    const file = word(target);
    if (operator !== '<')
      outputs.push({ operator: operator === '>>' ? '>>' : '>', target: file.value, dynamic: file.dynamic });
  }
  return { words, outputs };
}

/** `group` split so that each item for which `separate` holds stands alone. */
function splitAround<T>(group: readonly T[], separate: (item: T) => boolean): T[][] {
  const parts: T[][] = [];
  for (const item of group) {
    const last = parts.at(-1);
    if (separate(item) || !last || last.some(separate)) parts.push([item]);
    else last.push(item);
  }
  return parts;
}

/**
 * The command a redirection after a pipeline or list belongs to: tree-sitter-bash hangs
 * `a | b > out` and `a && b > out` on the whole, Bash on `b` alone. Undefined when the last
 * element is not a simple command (then the redirection applies to that compound command).
 */
export function trailingRedirectOwner(body: Node | null): Node | undefined {
  let last = body;
  while (last && (last.type === 'pipeline' || last.type === 'list')) last = last.lastNamedChild;
  if (last?.type === 'command' || (last?.type === 'test_command' && last.firstChild?.type === '['))
    return last;
  return undefined;
}

/**
 * The stretches of `source` that no leaf of the tree covers and that are not blank (each trimmed):
 * where tree-sitter-bash dropped text without marking an error. The one case known is the lone `-`
 * of `python3 - <<EOF`, which the caller puts back as a word; any other is unreadable.
 */
export function uncoveredText(root: Node, source: string): { start: number; text: string }[] {
  const found: { start: number; text: string }[] = [];
  const note = (from: number, to: number): void => {
    const gap = source.slice(from, to);
    if (/^(?:[ \t\r\n]|\\\n)*$/.test(gap)) return;
    const text = gap.trim();
    found.push({ start: from + gap.indexOf(text), text });
  };
  const cursor = root.walk();
  let covered = 0;
  try {
    for (;;) {
      // A here-document's text between its expansions is not in any node.
      if (cursor.nodeType !== 'heredoc_body' && cursor.gotoFirstChild()) continue;
      note(covered, cursor.startIndex);
      covered = Math.max(covered, cursor.endIndex);
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          note(covered, source.length);
          return found;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * A leaf that still holds `$(`, `${`, `$[` (or, unquoted, `<(`/`>(`) is an expansion tree-sitter-bash
 * did not read as one, where Bash would run it: unreadable.
 */
export function checkLeaf(node: Node, source: string): void {
  if (!LEAVES_TO_CHECK.has(node.type)) return;
  const text = source.slice(node.startIndex, node.endIndex);
  const unquoted = node.type !== 'string_content' && node.type !== 'heredoc_content';
  if (/(?<!\\)(?:\\\\)*\$[({[]/.test(text) || (unquoted && /[<>]\(/.test(text))) {
    throw new ReadError(
      `tree-sitter-bash read ${JSON.stringify(text.slice(0, 24))} as text where Bash expands it`,
    );
  }
}

const LEAVES_TO_CHECK = new Set([
  'word',
  'regex',
  'extglob_pattern',
  'string_content',
  'heredoc_content',
  'number',
  'special_variable_name',
  'test_operator',
]);

/** The text Bash evaluates as arithmetic in `node`, if it is `$((…))`, `$[…]`, `((…))`, a C-style `for` header or an array subscript. */
export function arithmeticText(node: Node, source: string): string | undefined {
  const text = (from: Node | null | undefined, to: Node | null | undefined = from): string =>
    from && to ? source.slice(from.startIndex, to.endIndex) : '';
  switch (node.type) {
    case 'arithmetic_expansion':
      return text(node).replace(/^\$\(\(|\)\)$|^\$\[|\]$/g, '');
    case 'compound_statement':
      return node.firstChild?.type === '((' ? text(node).slice(2, -2) : undefined;
    case 'c_style_for_statement': {
      const body = node.childForFieldName('body');
      return source
        .slice(node.startIndex, body?.startIndex ?? node.endIndex)
        .replace(/^for\s*\(\(|\)\)\s*;?\s*$/g, '');
    }
    case 'subscript':
      return text(node.childForFieldName('index'));
    case 'test_command':
      return node.firstChild?.type === '[[' ? testArithmetic(text(node).slice(2, -2)) : undefined;
    default:
      return undefined;
  }
}

/** `[[ … ]]`: with `-eq`, `-lt` … or `-v`, the text Bash may evaluate as arithmetic (the test's words, operators left out). */
function testArithmetic(inside: string): string | undefined {
  if (!/(^|\s)-(eq|ne|lt|le|gt|ge|v|R)(\s|$)/.test(inside)) return undefined;
  return inside.replace(/(^|\s)(-[a-zA-Z]+|&&|\|\||!|==?|!=|[<>()])(?=\s|$)/g, ' ');
}
