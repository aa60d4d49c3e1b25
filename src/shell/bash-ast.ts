import type { Node, Parser } from 'web-tree-sitter';
import { backquotedScriptsIn } from './bash-backquotes.js';
import type { OutputRedirection, ShellWord, SimpleCommand } from './bash-types.js';
import { withBashTree } from './bash-parser.js';
import { BashSyntaxError, ReadError } from './bash-read-error.js';
import {
  headOfHeredoc,
  inputRedirection,
  outputRedirection,
  redirectHeadEnd,
  REDIRECTS,
} from './bash-redirections.js';
import {
  arithmeticText,
  checkLeaf,
  isMissingNameAfterAssignment,
  keywordWords,
  readTestCommand,
  RESERVED,
  testCommandPieces,
  trailingRedirectOwner,
  uncoveredText,
} from './bash-tree-quirks.js';
import {
  builtinEvaluation,
  codeInText,
  DISAGREEING_CHARACTERS,
  expansionEnd,
  isConstantArithmetic,
  lateEvaluation,
} from './bash-expansion-scan.js';
import { programsOf } from './bash-programs.js';
import { groupWords, shellWord, type WordPiece } from './bash-words.js';

const MAX_DEPTH = 500;
const MAX_SCRIPT_DEPTH = 64;
/** Parents under which an assignment is not a statement of its own. */
const NOT_STATEMENTS = new Set([
  'command',
  'declaration_command',
  'variable_assignments',
  'c_style_for_statement',
]);

/**
 * Collects the simple commands and output redirections of a tree-sitter-bash tree (see
 * `ParsedBashCommand` for what is found and in which order): `read(root, backquotes)`, then
 * `commands` and `redirections`. Throws `ReadError` (`BashSyntaxError` for what Bash rejects).
 */
export class CommandCollector {
  readonly commands: SimpleCommand[] = [];
  readonly redirections: OutputRedirection[] = [];
  /** The files read by `<` and `<>` redirections, anywhere in the line. */
  readonly inputs: ShellWord[] = [];
  /** Redirections that tree-sitter-bash hangs on a whole pipeline or list, by the id of the last command they belong to. */
  private readonly trailing = new Map<number, Node[]>();
  /** Backquoted scripts by offset (see `withBashTree`), removed as they are read. */
  private backquotes = new Map<number, string>();
  /** Source text missing from the tree (see `uncoveredText`), removed as commands claim it. */
  private uncovered: { start: number; text: string }[] = [];

  constructor(
    private readonly source: string,
    private readonly parser: Parser,
    private readonly scriptDepth = 0,
  ) {}

  /** Reads a whole tree of `source`, with the scripts of its backquoted commands by offset. */
  read(root: Node, backquotes: ReadonlyMap<number, string>): void {
    const odd = DISAGREEING_CHARACTERS.exec(this.source);
    if (odd)
      throw new ReadError(
        `the control or blank character U+${odd[0].charCodeAt(0).toString(16).padStart(4, '0')} at offset ${odd.index}, which tree-sitter-bash and Bash may read differently`,
      );
    this.backquotes = new Map(backquotes);
    this.uncovered = uncoveredText(root, this.source);
    this.visit(root);
    const [left] = this.uncovered;
    if (left)
      throw new ReadError(
        `tree-sitter-bash left out ${JSON.stringify(left.text.slice(0, 24))} at offset ${left.start}`,
      );
    if (this.backquotes.size > 0)
      throw new ReadError(
        `no expansion found for the backquoted command at offset ${[...this.backquotes.keys()].join(', ')}`,
      );
  }

  private visit(node: Node, depth = 0): void {
    if (depth > MAX_DEPTH) throw new ReadError(`it nests more than ${MAX_DEPTH} levels deep`);
    if (node.childCount === 0) checkLeaf(node, this.source);
    const arithmetic = arithmeticText(node, this.source);
    if (arithmetic !== undefined && !isConstantArithmetic(arithmetic))
      this.unknownCommand(node, 'arithmetic on values known only when the command runs');
    switch (node.type) {
      case 'expansion':
        return this.expansion(node);
      case 'command':
      case 'declaration_command':
      case 'unset_command':
        return this.simpleCommand(node, this.trailing.get(node.id) ?? [], depth);
      case 'redirected_statement':
        return this.redirectedStatement(node, depth);
      case 'test_command':
        if (node.firstChild?.type === '[')
          return this.testCommand(node, this.trailing.get(node.id) ?? [], depth);
        break;
      case 'variable_assignment':
      case 'variable_assignments':
        // An assignment on its own is a command without words (not an argument of `export`, not the `i=0` of `for ((i=0; …))`).
        if (!NOT_STATEMENTS.has(node.parent?.type ?? '')) {
          this.visitChildren(node, depth);
          return this.push({ start: node.startIndex, end: node.endIndex }, [], this.assignmentsOf(node), []);
        }
        break;
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        return this.redirect(node, [], depth);
      case 'heredoc_body':
        return this.heredocBody(node, depth);
      case 'simple_expansion': {
        // A backquoted command's placeholder.
        const script = this.backquotes.get(node.startIndex);
        this.backquotes.delete(node.startIndex);
        if (script !== undefined) this.script(script, true);
        break;
      }
      case ';;':
      case ';&':
      case ';;&':
        if (node.parent?.type !== 'case_item')
          throw new BashSyntaxError(`syntax error near unexpected ${JSON.stringify(node.type)}`);
        break;
      default:
        break;
    }
    this.visitChildren(node, depth);
  }

  private visitChildren(node: Node, depth: number): void {
    for (const child of node.children) this.visit(child, depth + 1);
  }

  /**
   * A `command` (or `declare …`/`unset …`) with the redirections of the statement around it. The
   * commands inside its words and redirections come first, in source order; those after a
   * here-document's delimiter (its body, the rest of its line) come after it, as Bash reads them.
   */
  private simpleCommand(node: Node, outer: readonly Node[], depth: number): void {
    const pieces: Node[] = [];
    const assignments: Node[] = [];
    const redirects: Node[] = [...outer];
    node.children.forEach((child, index) => {
      if (
        child.type === 'variable_assignment' &&
        node.fieldNameForChild(index) === null &&
        node.type === 'command'
      )
        assignments.push(child);
      else if (REDIRECTS.has(child.type)) redirects.push(child);
      else if (
        child.type !== 'comment' &&
        !(child.type === 'command_name' && isMissingNameAfterAssignment(child.firstChild ?? child))
      )
        pieces.push(child);
    });
    const own: OutputRedirection[] = [];
    const extras: WordPiece[][] = [];
    const later: Node[] = [];
    for (const child of [...pieces, ...assignments, ...redirects].sort(bySource)) {
      if (REDIRECTS.has(child.type)) this.redirect(child, own, depth, { extras, later });
      else this.visit(child, depth + 1);
    }
    const dropped = this.claimDashes(
      node.startIndex,
      Math.max(node.endIndex, ...redirects.map((redirect) => redirect.startIndex)),
    );
    const groups = [...groupWords(pieces, this.source), ...extras, ...dropped].sort(
      (a, b) => (a[0]?.start ?? 0) - (b[0]?.start ?? 0),
    );
    const firstIsWord = ![...assignments, ...redirects].some(
      (child) => child.startIndex < (groups[0]?.[0]?.start ?? 0),
    );
    const skipped = firstIsWord ? keywordWords(groups.map((group) => this.word(group))) : 0;
    const start = Math.min(
      groups[skipped]?.[0]?.start ?? node.startIndex,
      ...[...assignments, ...redirects].map((child) => child.startIndex),
    );
    const end = Math.max(node.endIndex, ...redirects.map(redirectHeadEnd));
    const words = groups.slice(skipped).map((group) => this.word(group));
    const program = words[0];
    if (firstIsWord && program && RESERVED.has(program.source)) {
      throw new BashSyntaxError(`syntax error near unexpected ${JSON.stringify(program.source)}`);
    }
    this.push(
      { start, end },
      words,
      assignments.map((assignment) => this.text(assignment)),
      own,
    );
    for (const child of later) this.visit(child, depth + 1);
  }

  private redirectedStatement(node: Node, depth: number): void {
    const body = node.childForFieldName('body');
    const redirects = node.childrenForFieldName('redirect');
    const owner = trailingRedirectOwner(body);
    if (body && owner) {
      this.trailing.set(owner.id, redirects);
      return this.visit(body, depth + 1);
    }
    if (body) this.visit(body, depth + 1);
    const own: OutputRedirection[] = [];
    const later: Node[] = [];
    for (const redirect of redirects) this.redirect(redirect, own, depth, { later });
    // Only redirections (`> out`): a command without words that still writes its file.
    if (!body)
      this.push({ start: node.startIndex, end: Math.max(...redirects.map(redirectHeadEnd)) }, [], [], own);
    for (const child of later) this.visit(child, depth + 1);
  }

  /**
   * Reads a redirection: the commands inside it, and its output target into `own` and the overall
   * list. tree-sitter-bash reads `echo > a b` as a redirection with two destinations: the later
   * words are the command's, handed back in `extras` (elsewhere, as in Bash, an error). A
   * here-document's body and the rest of its line go to `later`.
   */
  private redirect(
    node: Node,
    own: OutputRedirection[],
    depth: number,
    after: { extras?: WordPiece[][]; later?: Node[] } = {},
  ): void {
    const [target, ...extras] = groupWords(node.childrenForFieldName('destination'), this.source);
    if (extras.length > 0) {
      if (!after.extras)
        throw new BashSyntaxError(
          `syntax error near unexpected ${JSON.stringify(this.word(extras[0] ?? []).source)}`,
        );
      after.extras.push(...extras);
    }
    const head = node.type === 'heredoc_redirect' ? headOfHeredoc(node) : node.children;
    for (const child of head) {
      if (REDIRECTS.has(child.type)) this.redirect(child, own, depth, after);
      else this.visit(child, depth + 1);
    }
    if (node.type === 'heredoc_redirect') {
      const rest = node.children.filter((child) => !head.some((part) => part.id === child.id));
      if (after.later) after.later.push(...rest);
      else for (const child of rest) this.visit(child, depth + 1);
    }
    const input = target && inputRedirection(node, this.word(target));
    if (input) this.inputs.push(input);
    const output = target && outputRedirection(node, this.word(target));
    if (output) {
      own.push(output);
      this.redirections.push(output);
    }
  }

  /** `[ … ]`: a simple command whose words tree-sitter-bash has parsed as an expression. */
  private testCommand(node: Node, outer: readonly Node[], depth: number): void {
    const pieces = testCommandPieces(node);
    for (const piece of pieces) this.visit(piece, depth + 1);
    const { words, outputs: own } = readTestCommand(groupWords(pieces, this.source), (group) =>
      this.word(group),
    );
    this.redirections.push(...own);
    const later: Node[] = [];
    for (const redirect of outer) this.redirect(redirect, own, depth, { later });
    this.push(
      { start: node.startIndex, end: Math.max(node.endIndex, ...outer.map(redirectHeadEnd)) },
      words,
      [],
      own,
    );
    for (const child of later) this.visit(child, depth + 1);
  }

  /**
   * An unquoted here-document's body: its `$(…)` are in the tree, its `` `…` `` are not, so the
   * body's text is searched for them (a backquote inside a `$(…)` is then read twice, which is harmless).
   */
  private heredocBody(node: Node, depth: number): void {
    const delimiter = node.parent?.children.find((child) => child.type === 'heredoc_start');
    if (delimiter && /['"\\]/.test(this.text(delimiter))) return;
    this.visitChildren(node, depth);
    const scripts = backquotedScriptsIn(this.text(node));
    if (!scripts) throw new ReadError('unterminated backquote in a here-document');
    for (const script of scripts) this.script(script, true);
  }

  /**
   * Reads a script found inside the command: a backquoted one (`required`: a syntax error there makes
   * the whole command unreadable, as Bash would fail on it) or the string of `bash -c`/`eval`
   * (skipped when unreadable: the outer command still stands for it).
   */
  private script(script: string, required: boolean): boolean {
    if (this.scriptDepth >= MAX_SCRIPT_DEPTH) throw new ReadError('scripts nest too deeply');
    const inner = new CommandCollector(script, this.parser, this.scriptDepth + 1);
    let result: ReturnType<typeof withBashTree>;
    try {
      result = withBashTree(this.parser, script, (root, backquotes) => inner.read(root, backquotes));
    } catch (error) {
      if (required || !(error instanceof ReadError)) throw error;
      return false;
    }
    if (!result.ok && required) throw new BashSyntaxError(`in a backquoted command: ${result.error}`);
    if (!result.ok) return false;
    this.commands.push(...inner.commands);
    this.redirections.push(...inner.redirections);
    this.inputs.push(...inner.inputs);
    return true;
  }

  private push(
    extent: { start: number; end: number },
    argv: readonly ShellWord[],
    assignments: readonly string[],
    redirections: readonly OutputRedirection[],
  ): void {
    if (argv.length === 0 && assignments.length === 0 && redirections.length === 0) return;
    this.commands.push({
      text: this.source.slice(extent.start, extent.end),
      words: argv.map((word) => word.value),
      argv,
      assignments,
      redirections,
    });
    // `bash -c 'cmd'`, `eval cmd…`, `sudo sh -c …`, `find -exec sh -c …`: the strings are read as commands of their own.
    for (const script of programsOf(argv).scripts) {
      if (!this.script(script.value, false))
        this.unknownCommand(
          { startIndex: extent.start, endIndex: extent.end },
          `the script ${JSON.stringify(script.value.slice(0, 40))} cannot be read`,
        );
    }
    const evaluated = builtinEvaluation(argv) ?? codeInText(assignments, argv);
    if (evaluated !== undefined)
      this.unknownCommand({ startIndex: extent.start, endIndex: extent.end }, evaluated);
  }

  /**
   * Records that Bash may run a command hookloop cannot name here (late evaluation of a value as
   * code, an unreadable script): a command whose program is computed, so that every deny and ask
   * rule with a specifier matches it and no allow rule does.
   */
  private unknownCommand(node: { startIndex: number; endIndex: number }, why: string): void {
    const text = this.source.slice(node.startIndex, node.endIndex);
    this.commands.push({
      text,
      words: [text],
      argv: [{ value: text, source: text, dynamic: true }],
      assignments: [],
      redirections: [],
      unknown: why,
    });
  }

  /**
   * `${…}`: tree-sitter-bash lexes the operands of most operators as plain text, so the expansion is
   * read again here. Its end must be where Bash ends it; the commands inside are found by reading
   * its text as the body of an unquoted here-document (where Bash expands `$(…)`, `` `…` ``,
   * `$((…))` and `${…}` as it does in an operand; quotes there are literal, so a quoted `$(…)` is
   * counted too, which only errs on the safe side).
   */
  private expansion(node: Node): void {
    if (expansionEnd(this.source, node.startIndex) !== node.endIndex)
      throw new ReadError(
        `Bash may end the expansion at offset ${node.startIndex} elsewhere than tree-sitter-bash`,
      );
    const inside = this.source.slice(node.startIndex + 2, node.endIndex - 1);
    for (const offset of [...this.backquotes.keys()])
      if (offset >= node.startIndex && offset < node.endIndex) this.backquotes.delete(offset);
    this.uncovered = this.uncovered.filter(
      (gap) => gap.start < node.startIndex || gap.start >= node.endIndex,
    );
    const why = lateEvaluation(inside);
    if (why !== undefined) this.unknownCommand(node, why);
    if (!/[$`]/.test(inside)) return;
    let delimiter = 'HOOKLOOP_EOF';
    while (inside.includes(delimiter)) delimiter += '_';
    const before = this.commands.length;
    this.script(`: <<${delimiter}\n${inside}\n${delimiter}\n`, true);
    // The first command read is the `:` that carries the here-document.
    const carrier = this.commands.findIndex(
      (command, index) => index >= before && command.text.startsWith(':'),
    );
    if (carrier >= 0) this.commands.splice(carrier, 1);
  }

  private word(group: readonly WordPiece[]): ShellWord {
    return shellWord(group, this.source);
  }

  /** The lone `-` words tree-sitter-bash dropped between `from` and `to` (`python3 - <<EOF`), as words. */
  private claimDashes(from: number, to: number): WordPiece[][] {
    const dashes = this.uncovered.filter((gap) => gap.text === '-' && gap.start >= from && gap.start < to);
    this.uncovered = this.uncovered.filter((gap) => !dashes.includes(gap));
    return dashes.map((gap) => [{ text: '-', start: gap.start, end: gap.start + 1 }]);
  }

  private text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  private assignmentsOf(node: Node): string[] {
    return (
      node.type === 'variable_assignment'
        ? [node]
        : node.namedChildren.filter((child) => child.type === 'variable_assignment')
    ).map((child) => this.text(child));
  }
}

function bySource(a: Node, b: Node): number {
  return a.startIndex - b.startIndex;
}
