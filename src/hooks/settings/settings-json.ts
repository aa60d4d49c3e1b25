import { ConfigError } from '../../errors.js';

/**
 * Parses JSON text (a leading BOM is ignored; whitespace only = `{}`).
 * @throws ConfigError `<fileLabel>: invalid JSON at line L column C: <why>`.
 */
export function parseJson(text: string, fileLabel: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return {};
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    // V8 appends `in JSON at position N` or a quoted excerpt of the text (which may span lines);
    // the line and column replace both.
    const raw = (error as Error).message;
    const why = (
      raw.endsWith(' is not valid JSON')
        ? raw.replace(/,\s*(?:\.\.\.)?"[\s\S]*$/, '')
        : raw.replace(/ in JSON at position \d+[\s\S]*$/, '')
    ).replace(/\s+/g, ' ');
    const { line, column } = lineAndColumn(body, jsonErrorOffset(body));
    throw new ConfigError(`${fileLabel}: invalid JSON at line ${line} column ${column}: ${why}`, {
      file: fileLabel,
      cause: error,
    });
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

const JSON_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * Offset of the first JSON syntax error in `text` (its length when the text ends early). Only
 * called after JSON.parse failed, because V8 leaves the position out of some messages
 * (`Unexpected token ']'` for `[1,]`).
 */
function jsonErrorOffset(text: string): number {
  let at = 0;
  const skipSpace = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++;
  };
  const expect = (char: string): boolean => {
    skipSpace();
    if (text.charAt(at) !== char) return false;
    at++;
    return true;
  };
  const string = (): boolean => {
    if (text.charAt(at) !== '"') return false;
    at++;
    while (at < text.length) {
      const char = text.charAt(at);
      if (char < ' ') return false;
      at++;
      if (char === '"') return true;
      if (char !== '\\') continue;
      const escape = text.charAt(at);
      if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) at += 5;
      else if (escape !== '' && '"\\/bfnrt'.includes(escape)) at++;
      else return false;
    }
    return false;
  };
  const sequence = (close: string, member: () => boolean): boolean => {
    at++;
    if (expect(close)) return true;
    for (;;) {
      if (!member()) return false;
      if (expect(close)) return true;
      if (!expect(',')) return false;
    }
  };
  const objectMember = (): boolean => {
    skipSpace();
    return string() && expect(':') && value();
  };
  const value = (): boolean => {
    skipSpace();
    const char = text.charAt(at);
    if (char === '{') return sequence('}', objectMember);
    if (char === '[') return sequence(']', value);
    if (char === '"') return string();
    JSON_LITERAL.lastIndex = at;
    if (!JSON_LITERAL.test(text)) return false;
    at = JSON_LITERAL.lastIndex;
    return true;
  };
  try {
    if (value()) {
      skipSpace();
      if (at === text.length) return text.length;
    }
    return at;
  } catch {
    // Only a nesting deep enough to overflow the stack gets here; point at the end.
    return text.length;
  }
}
