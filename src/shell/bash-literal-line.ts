// A second, deliberately small reader of Bash command lines, for the one decision that runs a
// command without asking anybody: "this command is read-only". It accepts only a subset of Bash
// whose meaning is fixed by the text alone — simple commands of literal words joined by `|`, `|&`,
// `&&`, `||`, `;` and newlines, with plain redirections — and refuses everything else (expansions,
// globs, braces, tildes, subshells, compound commands, here-documents, control characters …).
// Inside that subset Bash performs no expansion at all, so the words a program receives are
// exactly the words read here. Being a separate reader from tree-sitter-bash, a quirk of either
// cannot make a command look read-only on its own.

/** A redirection of a literal command: `fd` is the descriptor redirected (default per operator). */
export interface LiteralRedirection {
  /** `<` reads a file, `>`/`>>` write one (`&>`, `&>>`, `>|`, `>&file` included), `dup` copies or closes a descriptor (`2>&1`, `<&-`). */
  readonly kind: '<' | '>' | '>>' | 'dup';
  /** The file (for `<`, `>`, `>>`) or the descriptor (`1`, `-`) for `dup`, quotes removed. */
  readonly target: string;
}

/** One simple command of a literal command line. */
export interface LiteralCommand {
  /** Leading `NAME=value` assignments as `[name, value]`, quotes removed. */
  readonly assignments: readonly (readonly [string, string])[];
  /** The words, quotes removed: `argv[0]` is the program. Empty only for an assignment-only command. */
  readonly argv: readonly string[];
  readonly redirections: readonly LiteralRedirection[];
  /** The operator that joins it to the next command (`&&`, `||`, `|`, `|&`, `;`, a newline), if any. */
  readonly next?: string;
}

/** A command line read as literal simple commands, or why it is not one. */
export type LiteralCommandLine =
  | { readonly ok: true; readonly commands: readonly LiteralCommand[] }
  | { readonly ok: false; readonly reason: string };

// Unquoted characters with no meaning to Bash inside a word (`#` only after the first character).
const PLAIN = /[A-Za-z0-9_./,:=+%@^\]-]/;
// Reserved words Bash reads specially at the start of a command.
const RESERVED = new Set([
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
const NAME_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

class Refused extends Error {}

/**
 * Reads `command` as literal simple commands (see the comment at the top of this file). Returns
 * `{ ok: false, reason }` naming the first construct outside the subset. Never throws.
 */
export function readLiteralCommandLine(command: string): LiteralCommandLine {
  try {
    return { ok: true, commands: new LiteralReader(command).read() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}

interface Word {
  readonly text: string;
  /** True when every character came unquoted and unescaped (assignments, reserved words and descriptor numbers need that). */
  readonly plain: boolean;
  /** The text before the first quote or backslash (Bash recognises `NAME=` there only). */
  readonly unquotedPrefix: string;
}

class LiteralReader {
  private index = 0;

  constructor(private readonly source: string) {}

  read(): LiteralCommand[] {
    const commands: LiteralCommand[] = [];
    // The operator that still needs a command after it (`|`, `&&`, `||`); newlines may come between.
    let pending: string | undefined;
    let afterCommand = false;
    for (;;) {
      this.skipBlanks();
      const char = this.source[this.index];
      if (char === undefined) {
        if (pending !== undefined) throw new Refused(`the command line ends after "${pending}"`);
        return commands;
      }
      if (char === '\n') {
        this.index += 1;
        if (afterCommand) this.joined(commands, '\n');
        afterCommand = false;
        continue;
      }
      if (char === ';' || char === '|' || char === '&') {
        const two = this.source.slice(this.index, this.index + 2);
        const operator =
          two === '&&' || two === '||' || two === '|&' || two === ';;' || two === ';&' || two === '&>'
            ? two
            : char;
        if (operator === '&>') {
          commands.push(this.simpleCommand());
          pending = undefined;
          afterCommand = true;
          continue;
        }
        if (!afterCommand) throw new Refused(`"${operator}" without a command before it`);
        if (operator === '&') throw new Refused('a background command ("&")');
        if (operator === ';;' || operator === ';&')
          throw new Refused(`"${operator}" outside a case statement`);
        this.index += operator.length;
        this.joined(commands, operator);
        pending = operator === ';' ? undefined : operator;
        afterCommand = false;
        continue;
      }
      if (afterCommand) throw new Refused('two commands without an operator between them');
      commands.push(this.simpleCommand());
      pending = undefined;
      afterCommand = true;
    }
  }

  /** Records the operator after the last command read. */
  private joined(commands: LiteralCommand[], operator: string): void {
    const last = commands.at(-1);
    if (last && last.next === undefined) commands[commands.length - 1] = { ...last, next: operator };
  }

  private simpleCommand(): LiteralCommand {
    const assignments: [string, string][] = [];
    const argv: string[] = [];
    const redirections: LiteralRedirection[] = [];
    for (;;) {
      this.skipBlanks();
      const char = this.source[this.index];
      if (
        char === undefined ||
        char === '\n' ||
        char === ';' ||
        char === '|' ||
        (char === '&' && this.source[this.index + 1] !== '>')
      )
        break;
      if (char === '<' || char === '>' || char === '&') {
        redirections.push(this.redirection(undefined));
        continue;
      }
      const word = this.word();
      const next = this.source[this.index];
      if (next === '<' || next === '>') {
        // `2>x`: digits right before the operator name the descriptor; otherwise the word ends there (`a>x`).
        if (word.plain && /^\d+$/.test(word.text)) {
          redirections.push(this.redirection(word.text));
          continue;
        }
      }
      const assignment = NAME_ASSIGNMENT.exec(word.unquotedPrefix);
      if (argv.length === 0 && assignment)
        assignments.push([assignment[1] as string, word.text.slice(assignment[0].length)]);
      else {
        if (argv.length === 0 && word.plain && RESERVED.has(word.text))
          throw new Refused(`the reserved word "${word.text}"`);
        argv.push(word.text);
      }
    }
    if (argv.length === 0 && assignments.length === 0 && redirections.length === 0)
      throw new Refused('an empty command');
    return { assignments, argv, redirections };
  }

  private redirection(descriptor: string | undefined): LiteralRedirection {
    const rest = this.source.slice(this.index);
    const operator = /^(&>>|&>|>>|>\||>&|<&|<<<|<<|<>|<\(|>\(|<|>)/.exec(rest)?.[0] as string;
    if (['<<<', '<<', '<>', '<(', '>('].includes(operator))
      throw new Refused(`the redirection "${operator}"`);
    if (descriptor !== undefined && operator.startsWith('&')) throw new Refused('a descriptor before "&>"');
    this.index += operator.length;
    this.skipBlanks();
    const target = this.word();
    if (target.text === '') throw new Refused(`"${operator}" without a target`);
    if (operator === '>&' || operator === '<&') {
      if (/^(\d+|-)$/.test(target.text) && target.plain) return { kind: 'dup', target: target.text };
      if (operator === '<&') throw new Refused('"<&" to a file');
      return { kind: '>', target: target.text }; // `>&file` writes stdout and stderr to the file
    }
    if (operator === '<') return { kind: '<', target: target.text };
    return { kind: operator.endsWith('>>') ? '>>' : '>', target: target.text };
  }

  /** One word at `index` (may be empty when an operator follows directly). */
  private word(): Word {
    let text = '';
    let plain = true;
    let unquotedPrefix: string | undefined;
    const start = this.index;
    for (;;) {
      const char = this.source[this.index];
      if (
        char === undefined ||
        char === ' ' ||
        char === '\t' ||
        char === '\n' ||
        char === ';' ||
        char === '|' ||
        char === '&' ||
        char === '<' ||
        char === '>'
      )
        break;
      if (plain && (char === "'" || char === '"' || char === '\\')) unquotedPrefix = text;
      if (char === "'") {
        text += this.singleQuoted();
        plain = false;
      } else if (char === '"') {
        text += this.doubleQuoted();
        plain = false;
      } else if (char === '\\') {
        const escaped = this.source[this.index + 1];
        if (escaped === undefined || !isPrintableAscii(escaped))
          throw new Refused('a backslash before a line end or a control character');
        text += escaped;
        plain = false;
        this.index += 2;
      } else if (
        PLAIN.test(char) ||
        (char === '#' && this.index > start) ||
        (char === '[' && this.index === start && this.isLoneBracket()) ||
        (char === '~' && this.isLiteralTilde(start))
      ) {
        text += char;
        this.index += 1;
      } else {
        throw new Refused(`the character ${JSON.stringify(char)} outside quotes`);
      }
    }
    return { text, plain, unquotedPrefix: unquotedPrefix ?? text };
  }

  /** A `~` Bash leaves alone (`HEAD~1`): not at the start of a word, not after `=` or `:` (`a=~/x` expands). */
  private isLiteralTilde(start: number): boolean {
    return this.index > start && !'=:'.includes(this.source[this.index - 1] as string);
  }

  /** A `[` that is a whole word (the test command), not the start of a glob. */
  private isLoneBracket(): boolean {
    const after = this.source[this.index + 1];
    return after === undefined || after === ' ' || after === '\t' || after === '\n' || after === ';';
  }

  private singleQuoted(): string {
    const end = this.source.indexOf("'", this.index + 1);
    if (end < 0) throw new Refused('an unterminated single quote');
    const content = this.source.slice(this.index + 1, end);
    for (let index = 0; index < content.length; index += 1) {
      const char = content[index] as string;
      if (!isQuotableText(char)) throw new Refused('a control character inside quotes');
      if (char === '`') throw new Refused('a backquote, even quoted');
      // A quoted `$` stays text in Bash, but a program that evaluates its argument as shell text
      // would expand it: only a `$` that cannot start an expansion is taken (`grep 'end$'`).
      if (
        char === '$' &&
        index + 1 < content.length &&
        !/[\s|)/\\.^,;:\]]/.test(content[index + 1] as string)
      )
        throw new Refused('a "$" that could start an expansion, even quoted');
    }
    this.index = end + 1;
    return content;
  }

  private doubleQuoted(): string {
    let text = '';
    this.index += 1;
    for (;;) {
      const char = this.source[this.index];
      if (char === undefined) throw new Refused('an unterminated double quote');
      if (char === '"') break;
      if (char === '$' || char === '`') throw new Refused(`"${char}" inside double quotes`);
      if (char === '\\') {
        const escaped = this.source[this.index + 1];
        if (escaped === undefined || escaped === '\n')
          throw new Refused('a line continuation inside double quotes');
        if (escaped === '"' || escaped === '\\') {
          text += escaped;
          this.index += 2;
          continue;
        }
        if (escaped === '$' || escaped === '`') throw new Refused(`"${escaped}" inside double quotes`);
      }
      if (!isQuotableText(char)) throw new Refused('a control character inside quotes');
      text += char;
      this.index += 1;
    }
    this.index += 1;
    return text;
  }

  private skipBlanks(): void {
    while (this.source[this.index] === ' ' || this.source[this.index] === '\t') this.index += 1;
  }
}

function isPrintableAscii(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 && code < 0x7f;
}

/** Text allowed inside quotes: printable characters and tabs; no other control characters (`\r`, NUL, C1). */
function isQuotableText(char: string): boolean {
  const code = char.charCodeAt(0);
  return code === 0x09 || (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0));
}
