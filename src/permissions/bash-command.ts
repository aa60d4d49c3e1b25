import { parse as parseShell } from 'sh-syntax';

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
}

/**
 * A command line split into its simple commands: those joined by `&&`, `||`, `;`, `&`, pipes and
 * newlines, those inside subshells, groups, `if`/`while`/`for`/`case` bodies and function bodies,
 * and those inside `$(…)`, `` `…` ``, `<(…)`, `>(…)`, `$((…))`, `${…}`, unquoted here-documents,
 * and the string of `bash -c '…'` / `sh -c '…'` / `eval …`. Order: inner commands before the command
 * that contains them, otherwise source order. `redirections` holds every output redirection,
 * including those on compound commands (`(cd a; ls) > out.txt`).
 */
export type ParsedBashCommand =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[]; readonly redirections: readonly OutputRedirection[] }
  | { readonly ok: false; readonly error: string };

const CACHE_LIMIT = 256;
const cache = new Map<string, Promise<ParsedBashCommand>>();

/**
 * Splits a Bash command line into its simple commands (see `ParsedBashCommand`). The command is
 * first checked by sh-syntax (mvdan/sh's Bash parser): what it rejects is reported as
 * `{ ok: false, error }` with its message. sh-syntax's JS tree only describes top-level statements,
 * so the inside of each statement is read by hookloop's own reader, which follows the same grammar;
 * a construct it cannot follow is reported as unparsable too. Never throws. Results are cached
 * per command string (the last 256).
 */
export function parseBashCommand(command: string): Promise<ParsedBashCommand> {
  const cached = cache.get(command);
  if (cached) return cached;
  const result = parseUncached(command);
  cache.set(command, result);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return result;
}

async function parseUncached(command: string): Promise<ParsedBashCommand> {
  try {
    await parseShell(command);
  } catch (error) {
    return { ok: false, error: `not valid Bash: ${error instanceof Error ? error.message : String(error)}` };
  }
  return readBashCommand(command);
}

/** The reader alone, without the sh-syntax check: for input already known to be valid Bash. Never throws. */
export function readBashCommand(command: string): ParsedBashCommand {
  try {
    const reader = new ShellReader(command, 0);
    reader.readProgram();
    return { ok: true, commands: reader.commands, redirections: reader.redirections };
  } catch (error) {
    return { ok: false, error: `hookloop could not read this command: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const MAX_DEPTH = 64;
const BLANK = new Set([' ', '\t']);
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const REDIRECT_OPERATORS = ['<<<', '<<-', '&>>', '<<', '>>', '<&', '>&', '<>', '>|', '&>', '<', '>'];
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

class ReadError extends Error {}

interface PendingHeredoc {
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
}

/**
 * A recursive-descent reader of Bash (the subset that matters for permissions: where simple
 * commands, their words and their output redirections are). It assumes valid input and throws
 * `ReadError` where it is lost.
 */
class ShellReader {
  readonly commands: SimpleCommand[] = [];
  readonly redirections: OutputRedirection[] = [];
  private pos = 0;
  private readonly heredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new ReadError('nesting is too deep');
  }

  readProgram(): void {
    this.readList(new Set());
    this.skipLinebreaks();
    if (this.pos < this.src.length) throw new ReadError(`unexpected ${JSON.stringify(this.src[this.pos])} at offset ${this.pos}`);
  }

  // ---- lists and commands ----

  /** Reads commands and separators until EOF, `)`, a case terminator or one of `terminators` at command position. */
  private readList(terminators: ReadonlySet<string>): void {
    for (;;) {
      this.skipSeparators();
      if (this.atEnd() || this.peek() === ')' || this.atCaseTerminator()) return;
      const reserved = this.peekReservedWord();
      if (reserved !== undefined && terminators.has(reserved)) return;
      const before = this.pos;
      this.readCommand();
      if (this.pos === before) throw new ReadError(`unexpected ${JSON.stringify(this.peek())} at offset ${this.pos}`);
    }
  }

  /** Skips blanks, newlines and the operators between commands (`;`, `&`, `&&`, `||`, `|`, `|&`). */
  private skipSeparators(): void {
    for (;;) {
      this.skipBlanks();
      const char = this.peek();
      if (char === '\n') this.readNewline();
      else if (char === ';' && !this.atCaseTerminator()) this.pos += 1;
      else if (char === '&' && this.peek(1) !== '>') this.pos += this.peek(1) === '&' ? 2 : 1;
      else if (char === '|') this.pos += this.peek(1) === '|' || this.peek(1) === '&' ? 2 : 1;
      else return;
    }
  }

  private readCommand(): void {
    this.skipBlanks();
    const reserved = this.peekReservedWord();
    switch (reserved) {
      case '!':
      case 'time':
      case 'coproc':
        this.pos += reserved.length;
        this.skipBlanks();
        if (reserved === 'time' && this.src.startsWith('-p', this.pos) && this.isWordEnd(this.pos + 2)) this.pos += 2;
        return this.readCommand();
      case 'if':
        return this.readIf();
      case 'while':
      case 'until':
        this.pos += reserved.length;
        this.readList(new Set(['do']));
        this.readBody();
        return this.readTrailingRedirections();
      case 'for':
      case 'select':
        return this.readFor(reserved);
      case 'case':
        return this.readCase();
      case '{':
        this.pos += 1;
        this.readList(new Set(['}']));
        this.expectReserved('}');
        return this.readTrailingRedirections();
      case '[[':
        this.pos += 2;
        this.readConditional();
        return this.readTrailingRedirections();
      case 'function':
        this.pos += reserved.length;
        this.skipBlanks();
        this.readWord();
        this.skipBlanks();
        if (this.peek() === '(') this.readEmptyParens();
        this.skipLinebreaks();
        return this.readCommand();
      default:
        break;
    }
    if (this.peek() === '(') {
      if (this.peek(1) === '(') this.readArithmetic(this.pos);
      else {
        this.pos += 1;
        this.readList(new Set());
        this.skipLinebreaks();
        this.expect(')');
      }
      return this.readTrailingRedirections();
    }
    this.readSimpleCommand();
  }

  private readIf(): void {
    this.pos += 2;
    this.readList(new Set(['then']));
    this.expectReserved('then');
    for (;;) {
      this.readList(new Set(['elif', 'else', 'fi']));
      const word = this.peekReservedWord();
      if (word === 'elif') {
        this.pos += 4;
        this.readList(new Set(['then']));
        this.expectReserved('then');
      } else if (word === 'else') {
        this.pos += 4;
        this.readList(new Set(['fi']));
        this.expectReserved('fi');
        break;
      } else {
        this.expectReserved('fi');
        break;
      }
    }
    this.readTrailingRedirections();
  }

  /** `do list done` (or `{ list }`), after a loop header. */
  private readBody(): void {
    this.skipSeparators();
    if (this.peekReservedWord() === '{') {
      this.pos += 1;
      this.readList(new Set(['}']));
      this.expectReserved('}');
      return;
    }
    this.expectReserved('do');
    this.readList(new Set(['done']));
    this.expectReserved('done');
  }

  private readFor(keyword: string): void {
    this.pos += keyword.length;
    this.skipBlanks();
    if (this.peek() === '(' && this.peek(1) === '(') {
      this.readArithmetic(this.pos);
    } else {
      this.readWord();
      this.skipLinebreaks();
      if (this.peekReservedWord() === 'in') {
        this.pos += 2;
        for (;;) {
          this.skipBlanks();
          if (this.atEnd() || this.peek() === ';' || this.peek() === '\n') break;
          this.readWord();
        }
      }
    }
    this.readBody();
    this.readTrailingRedirections();
  }

  private readCase(): void {
    this.pos += 4;
    this.skipBlanks();
    this.readWord();
    this.skipLinebreaks();
    this.expectReserved('in');
    for (;;) {
      this.skipLinebreaks();
      if (this.peekReservedWord() === 'esac') {
        this.pos += 4;
        break;
      }
      if (this.peek() === '(') this.pos += 1;
      for (;;) {
        this.skipBlanks();
        this.readWord();
        this.skipBlanks();
        if (this.peek() === '|') this.pos += 1;
        else break;
      }
      this.expect(')');
      this.readList(new Set(['esac']));
      if (this.atCaseTerminator()) this.pos += this.src.startsWith(';;&', this.pos) ? 3 : 2;
    }
    this.readTrailingRedirections();
  }

  /** The inside of `[[ … ]]`: operands are words (their substitutions are read); `<`, `>` compare. */
  private readConditional(): void {
    for (;;) {
      this.skipLinebreaks();
      if (this.atEnd()) throw new ReadError('unterminated [[');
      if (this.src.startsWith(']]', this.pos) && this.isWordEnd(this.pos + 2)) {
        this.pos += 2;
        return;
      }
      const char = this.peek();
      if (char === '&' || char === '|') this.pos += this.peek(1) === char ? 2 : 1;
      else if (char === '(' || char === ')' || char === '<' || char === '>' || char === ';') this.pos += 1;
      else this.readWord();
    }
  }

  private readSimpleCommand(): void {
    const start = this.pos;
    let end = this.pos;
    const argv: ShellWord[] = [];
    const assignments: string[] = [];
    const redirections: OutputRedirection[] = [];
    for (;;) {
      this.skipBlanks();
      if (this.atEnd()) break;
      const char = this.peek();
      if (char === '\n' || char === ';' || char === ')' || char === '|') break;
      if (char === '&' && this.peek(1) !== '>') break;
      if (char === '(') {
        // `name() body`: a function definition; its body is read like any other command.
        if (argv.length !== 1 || assignments.length > 0) throw new ReadError(`unexpected "(" at offset ${this.pos}`);
        this.readEmptyParens();
        this.skipLinebreaks();
        this.readCommand();
        return;
      }
      const redirection = this.tryReadRedirection();
      if (redirection !== undefined) {
        if (redirection) redirections.push(redirection);
      } else {
        const word = this.readWord();
        if (argv.length === 0 && ASSIGNMENT.test(word.source)) {
          assignments.push(word.source + this.readArrayValue(word.source));
        } else {
          argv.push(word);
        }
      }
      end = this.pos;
    }
    if (argv.length === 0 && assignments.length === 0 && redirections.length === 0) return;
    this.redirections.push(...redirections);
    this.commands.push({ text: this.src.slice(start, end), words: argv.map((word) => word.value), argv, assignments, redirections });
    this.readShellString(argv);
  }

  /** `bash -c 'cmd'`, `sh -c "cmd"`, `eval cmd…`: the string is read as commands of its own. */
  private readShellString(argv: readonly ShellWord[]): void {
    const program = argv[0]?.value;
    let script: ShellWord | undefined;
    if (program === 'eval') {
      script = argv.length > 1 ? { value: argv.slice(1).map((word) => word.value).join(' '), source: '', dynamic: argv.slice(1).some((word) => word.dynamic) } : undefined;
    } else if (program !== undefined && SHELLS.has(program.replace(/^.*\//, ''))) {
      const flag = argv.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word.value));
      script = flag > 0 ? argv[flag + 1] : undefined;
    }
    if (script === undefined || script.dynamic) return;
    try {
      const inner = new ShellReader(script.value, this.depth + 1);
      inner.readProgram();
      this.absorb(inner);
    } catch {
      // Not a command line we can read: the outer command still stands for it.
    }
  }

  /** `name=(a b c)`: the array's elements, read as words (their substitutions count). */
  private readArrayValue(assignment: string): string {
    if (!assignment.endsWith('=') || this.peek() !== '(') return '';
    const start = this.pos;
    this.pos += 1;
    for (;;) {
      this.skipLinebreaks();
      if (this.atEnd()) throw new ReadError('unterminated array');
      if (this.peek() === ')') break;
      this.readWord();
    }
    this.pos += 1;
    return this.src.slice(start, this.pos);
  }

  private readTrailingRedirections(): void {
    for (;;) {
      this.skipBlanks();
      const redirection = this.tryReadRedirection();
      if (redirection === undefined) return;
      if (redirection) this.redirections.push(redirection);
    }
  }

  /**
   * Reads a redirection at the current position, if there is one. Returns the output redirection,
   * `false` for a redirection that writes no file (input, here-doc, fd duplication), or
   * `undefined` (nothing consumed) when the next token is not a redirection.
   */
  private tryReadRedirection(): OutputRedirection | false | undefined {
    const prefix = /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 64));
    const at = this.pos + (prefix ? prefix[0].length : 0);
    const operator = REDIRECT_OPERATORS.find((candidate) => this.src.startsWith(candidate, at));
    if (operator === undefined) return undefined;
    // `<(…)` and `>(…)` are process substitutions: words, not redirections.
    if ((operator === '<' || operator === '>') && this.src[at + 1] === '(') return undefined;
    this.pos = at + operator.length;
    this.skipBlanks();
    if (operator === '<<' || operator === '<<-') {
      const delimiter = this.readWord();
      this.heredocs.push({ delimiter: delimiter.value, quoted: /['"\\]/.test(delimiter.source), stripTabs: operator === '<<-' });
      return false;
    }
    const target = this.readWord();
    if (operator === '>&' && (/^\d+-?$/.test(target.value) || target.value === '-')) return false;
    if (operator === '<' || operator === '<&' || operator === '<<<') return false;
    return { operator: operator === '>>' || operator === '&>>' ? '>>' : '>', target: target.value, dynamic: target.dynamic };
  }

  // ---- words ----

  private readWord(): ShellWord {
    const start = this.pos;
    let value = '';
    let dynamic = false;
    let openBracket = false;
    let openBrace = false;
    while (!this.atEnd()) {
      const char = this.src[this.pos] as string;
      const next = this.peek(1);
      if ((char === '<' || char === '>') && next === '(') {
        value += this.readNested(this.pos + 1);
        dynamic = true;
        continue;
      }
      if (META.has(char)) break;
      if (char === '\\') {
        if (next === '\n') this.pos += 2;
        else {
          value += next ?? '\\';
          this.pos += next === undefined ? 1 : 2;
        }
      } else if (char === "'") {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) throw new ReadError('unterminated single quote');
        value += this.src.slice(this.pos + 1, close);
        this.pos = close + 1;
      } else if (char === '$' && next === "'") {
        value += this.readAnsiC();
      } else if (char === '"' || (char === '$' && next === '"')) {
        if (char === '$') this.pos += 1;
        const quoted = this.readDoubleQuoted();
        value += quoted.value;
        dynamic ||= quoted.dynamic;
      } else if (char === '$' || char === '`') {
        const expansion = char === '$' ? this.readDollar(false) : this.readBackticks();
        value += expansion;
        dynamic ||= expansion !== '$';
      } else if ('?*+@!'.includes(char) && next === '(') {
        value += this.readBalanced(this.pos + 1, char);
        dynamic = true;
      } else {
        // Globs and brace expansion need both brackets unquoted in the word; a lone `[` (the test command) is literal.
        if (char === '*' || char === '?' || (char === '~' && this.pos === start)) dynamic = true;
        else if ((char === ']' && openBracket) || (char === '}' && openBrace)) dynamic = true;
        openBracket ||= char === '[';
        openBrace ||= char === '{';
        value += char;
        this.pos += 1;
      }
    }
    if (this.pos === start) throw new ReadError(`expected a word at offset ${start}`);
    return { value, source: this.src.slice(start, this.pos), dynamic };
  }

  private readDoubleQuoted(): { value: string; dynamic: boolean } {
    this.pos += 1;
    let value = '';
    let dynamic = false;
    for (;;) {
      if (this.atEnd()) throw new ReadError('unterminated double quote');
      const char = this.src[this.pos] as string;
      if (char === '"') {
        this.pos += 1;
        return { value, dynamic };
      }
      if (char === '\\') {
        const next = this.peek(1);
        if (next === '\n') this.pos += 2;
        else if (next !== undefined && '$`"\\'.includes(next)) {
          value += next;
          this.pos += 2;
        } else {
          value += char;
          this.pos += 1;
        }
      } else if (char === '$' || char === '`') {
        const expansion = char === '$' ? this.readDollar(true) : this.readBackticks();
        value += expansion;
        dynamic ||= expansion !== '$';
      } else {
        value += char;
        this.pos += 1;
      }
    }
  }

  /** `$'…'` with the common escapes decoded. */
  private readAnsiC(): string {
    this.pos += 2;
    let value = '';
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    for (;;) {
      if (this.atEnd()) throw new ReadError("unterminated $'");
      const char = this.src[this.pos] as string;
      if (char === "'") {
        this.pos += 1;
        return value;
      }
      if (char !== '\\') {
        value += char;
        this.pos += 1;
        continue;
      }
      const rest = this.src.slice(this.pos + 1, this.pos + 5);
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest);
      const octal = /^([0-7]{1,3})/.exec(rest);
      if (hex) {
        value += String.fromCharCode(parseInt(hex[1] as string, 16));
        this.pos += 1 + hex[0].length;
      } else if (octal) {
        value += String.fromCharCode(parseInt(octal[1] as string, 8));
        this.pos += 1 + octal[0].length;
      } else {
        const next = rest[0] ?? '';
        value += escapes[next] ?? `\\${next}`;
        this.pos += 2;
      }
    }
  }

  /** `$…` at the current position; returns its source text (a lone `$` is literal). */
  private readDollar(inDoubleQuotes: boolean): string {
    const start = this.pos;
    const next = this.peek(1);
    if (next === '(') {
      if (this.peek(2) === '(') this.readArithmetic(this.pos + 1);
      else this.readNested(this.pos + 1);
    } else if (next === '{') {
      this.readBraceParameter(inDoubleQuotes);
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      this.pos += 1;
      while (!this.atEnd() && /[A-Za-z0-9_]/.test(this.src[this.pos] as string)) this.pos += 1;
    } else if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.pos += 2;
    } else {
      this.pos += 1;
    }
    return this.src.slice(start, this.pos);
  }

  /** `(list)` at `open` (the `(` of `$(`, `<(`, `>(`): the commands inside are read; returns the source from the sigil. */
  private readNested(open: number): string {
    const start = open - 1;
    this.pos = open + 1;
    this.readList(new Set());
    this.skipLinebreaks();
    this.expect(')');
    return this.src.slice(start, this.pos);
  }

  private readBackticks(): string {
    const start = this.pos;
    let inner = '';
    this.pos += 1;
    for (;;) {
      if (this.atEnd()) throw new ReadError('unterminated backquote');
      const char = this.src[this.pos] as string;
      if (char === '`') break;
      if (char === '\\' && this.peek(1) !== undefined && '`$\\'.includes(this.peek(1) as string)) {
        inner += this.peek(1);
        this.pos += 2;
      } else {
        inner += char;
        this.pos += 1;
      }
    }
    this.pos += 1;
    const reader = new ShellReader(inner, this.depth + 1);
    reader.readProgram();
    this.absorb(reader);
    return this.src.slice(start, this.pos);
  }

  /** `((…))` or `$((…))` from its first `(` at `open`: skipped, but substitutions inside are read. */
  private readArithmetic(open: number): void {
    this.pos = open;
    let depth = 0;
    for (;;) {
      if (this.atEnd()) throw new ReadError('unterminated arithmetic expression');
      const char = this.src[this.pos] as string;
      if (char === '(') {
        depth += 1;
        this.pos += 1;
      } else if (char === ')') {
        depth -= 1;
        this.pos += 1;
        if (depth === 0) return;
      } else this.skipQuotedOrExpansion(char, false);
    }
  }

  /** `${…}`: skipped to its `}`, reading any substitutions inside. */
  private readBraceParameter(inDoubleQuotes: boolean): void {
    this.pos += 2;
    let depth = 1;
    for (;;) {
      if (this.atEnd()) throw new ReadError('unterminated ${');
      const char = this.src[this.pos] as string;
      if (char === '}') {
        depth -= 1;
        this.pos += 1;
        if (depth === 0) return;
      } else if (char === '{') {
        depth += 1;
        this.pos += 1;
      } else this.skipQuotedOrExpansion(char, inDoubleQuotes);
    }
  }

  /** Extglob `@(…)` and friends: balanced parentheses read as literal text. */
  private readBalanced(open: number, sigil: string): string {
    this.pos = open;
    let depth = 0;
    for (;;) {
      if (this.atEnd()) throw new ReadError('unterminated pattern');
      const char = this.src[this.pos] as string;
      if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      if (char === '(' || char === ')') {
        this.pos += 1;
        if (depth === 0) return sigil + this.src.slice(open, this.pos);
      } else this.skipQuotedOrExpansion(char, false);
    }
  }

  /** One step inside `$((…))`, `${…}` or a pattern: quotes and substitutions are consumed whole. */
  private skipQuotedOrExpansion(char: string, inDoubleQuotes: boolean): void {
    if (char === '\\') this.pos += 2;
    else if (char === "'" && !inDoubleQuotes) {
      const close = this.src.indexOf("'", this.pos + 1);
      if (close < 0) throw new ReadError('unterminated single quote');
      this.pos = close + 1;
    } else if (char === '"') this.readDoubleQuoted();
    else if (char === '$') this.readDollar(inDoubleQuotes);
    else if (char === '`') this.readBackticks();
    else if (char === '\n') this.readNewline();
    else this.pos += 1;
  }

  // ---- here-documents ----

  /** Consumes a newline token, then the bodies of the here-documents opened on that line. */
  private readNewline(): void {
    this.pos += 1;
    const pending = this.heredocs.splice(0);
    for (const heredoc of pending) {
      for (;;) {
        if (this.atEnd()) return;
        const lineEnd = this.src.indexOf('\n', this.pos);
        const end = lineEnd < 0 ? this.src.length : lineEnd;
        const line = this.src.slice(this.pos, end);
        this.pos = lineEnd < 0 ? end : end + 1;
        if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) break;
        if (!heredoc.quoted) this.readExpansionsIn(line);
      }
    }
  }

  /** Substitutions in a line of an unquoted here-document. */
  private readExpansionsIn(line: string): void {
    const reader = new ShellReader(line, this.depth + 1);
    while (!reader.atEnd()) {
      const char = reader.src[reader.pos] as string;
      if (char === '\\') reader.pos += 2;
      else if (char === '$') reader.readDollar(true);
      else if (char === '`') reader.readBackticks();
      else reader.pos += 1;
    }
    this.absorb(reader);
  }

  // ---- small helpers ----

  private absorb(reader: ShellReader): void {
    this.commands.push(...reader.commands);
    this.redirections.push(...reader.redirections);
  }

  private atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private isWordEnd(index: number): boolean {
    return index >= this.src.length || META.has(this.src[index] as string);
  }

  private atCaseTerminator(): boolean {
    return this.src.startsWith(';;', this.pos) || this.src.startsWith(';&', this.pos);
  }

  /** The unquoted reserved word at the current position, if one is there. */
  private peekReservedWord(): string | undefined {
    const match = /^(?:[a-z]+|\{|\}|!|\[\[)/.exec(this.src.slice(this.pos, this.pos + 10));
    if (!match || !this.isWordEnd(this.pos + match[0].length)) return undefined;
    return RESERVED.has(match[0]) ? match[0] : undefined;
  }

  private expectReserved(word: string): void {
    this.skipSeparators();
    if (this.peekReservedWord() !== word) throw new ReadError(`expected "${word}" at offset ${this.pos}`);
    this.pos += word.length;
  }

  private expect(char: string): void {
    if (this.peek() !== char) throw new ReadError(`expected "${char}" at offset ${this.pos}`);
    this.pos += 1;
  }

  private readEmptyParens(): void {
    this.expect('(');
    this.skipBlanks();
    this.expect(')');
  }

  private skipBlanks(): void {
    for (;;) {
      const char = this.peek();
      if (char !== undefined && BLANK.has(char)) this.pos += 1;
      else if (char === '\\' && this.peek(1) === '\n') this.pos += 2;
      else if (char === '#') {
        const end = this.src.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.src.length : end;
      } else return;
    }
  }

  private skipLinebreaks(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() !== '\n') return;
      this.readNewline();
    }
  }
}

const RESERVED = new Set(['!', '{', '}', '[[', 'if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'for', 'select', 'in', 'case', 'esac', 'function', 'time', 'coproc']);
