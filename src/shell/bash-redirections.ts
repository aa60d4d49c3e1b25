import type { Node } from 'web-tree-sitter';
import type { OutputRedirection, ShellWord } from './bash-types.js';

/** tree-sitter-bash's redirection nodes. */
export const REDIRECTS: ReadonlySet<string> = new Set([
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);

const WRITE = new Set(['>', '>|', '&>', '<>']);
const APPEND = new Set(['>>', '&>>']);

/**
 * The file a redirection writes, given its node and its (first) destination word: `>`, `>|`, `&>`,
 * `<>` and `>&file` count as `>`; `>>`, `&>>` as `>>`. Undefined for input, here-documents,
 * here-strings and descriptor duplication (`2>&1`, `>&-`).
 */
export function outputRedirection(node: Node, target: ShellWord): OutputRedirection | undefined {
  if (node.type !== 'file_redirect') return undefined;
  const operator = node.children.find((child) => !child.isNamed)?.type;
  if (operator === '>&') {
    if (/^\d+-?$/.test(target.value) || target.value === '-') return undefined;
    return { operator: '>', target: target.value, dynamic: target.dynamic };
  }
  if (operator !== undefined && WRITE.has(operator))
    return { operator: '>', target: target.value, dynamic: target.dynamic };
  if (operator !== undefined && APPEND.has(operator))
    return { operator: '>>', target: target.value, dynamic: target.dynamic };
  return undefined;
}

/** The file a `<` or `<>` redirection reads (its destination word), or undefined for any other redirection. */
export function inputRedirection(node: Node, target: ShellWord): ShellWord | undefined {
  if (node.type !== 'file_redirect') return undefined;
  const operator = node.children.find((child) => !child.isNamed)?.type;
  return operator === '<' || operator === '<>' ? target : undefined;
}

/**
 * Where a redirection ends on its command's line. A here-document's node runs to its closing
 * delimiter and may hold the rest of the line (`cat <<EOF | grep x`); only its operator, its
 * delimiter word and the redirections after it belong to the command.
 */
export function redirectHeadEnd(node: Node): number {
  if (node.type !== 'heredoc_redirect') return node.endIndex;
  return Math.max(
    node.startIndex,
    ...headOfHeredoc(node).map((child) =>
      REDIRECTS.has(child.type) ? redirectHeadEnd(child) : child.endIndex,
    ),
  );
}

/** A here-document redirection's children on its command's line: operator, delimiter, further redirections. */
export function headOfHeredoc(node: Node): Node[] {
  return node.children.filter(
    (child) =>
      child.type === '<<' ||
      child.type === '<<-' ||
      child.type === 'heredoc_start' ||
      REDIRECTS.has(child.type),
  );
}
