// How Bash itself reads the text of a `${…}` expansion and of arithmetic, for the places where
// tree-sitter-bash's subtree cannot be trusted: it lexes the operand of `${x#…}`, `${x/…}` and
// friends as plain text, so a `$(…)` or `` `…` `` there is invisible in the tree. These helpers
// find where Bash ends the expansion (to check that the tree agrees) and which parts of it Bash
// evaluates later as code (arithmetic on variable values, indirection, prompt expansion).

/**
 * Control characters (other than tab and newline) and Unicode blanks: tree-sitter-bash may read
 * them as blanks or line ends (`\r#…` as a comment) where Bash reads them as word characters.
 */
/* eslint-disable no-control-regex -- control characters are exactly what this looks for */
export const DISAGREEING_CHARACTERS =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/* eslint-enable no-control-regex */

/**
 * The offset just after the `}` that closes the `${` at `start` in `source`, as Bash's parser
 * finds it (quotes, escapes, nested `${…}`, `$(…)`, backquotes and unquoted `{…}` pairs skipped),
 * or undefined when the text ends first or holds something this scanner does not follow.
 */
export function expansionEnd(source: string, start: number): number | undefined {
  return skipBraced(source, start + 2);
}

function skipBraced(text: string, from: number): number | undefined {
  let depth = 1;
  for (let index = from; index < text.length;) {
    const char = text[index];
    if (char === '}') {
      depth -= 1;
      if (depth === 0) return index + 1;
      index += 1;
    } else if (char === '{') {
      depth += 1;
      index += 1;
    } else {
      const next = skipQuotedOrNested(text, index);
      if (next === undefined) return undefined;
      index = next;
    }
  }
  return undefined;
}

/** Skips one escape, quoted string or nested expansion at `index` (else one character). */
function skipQuotedOrNested(text: string, index: number): number | undefined {
  const char = text[index];
  if (char === '\\') return index + 2;
  if (char === "'") return after(text.indexOf("'", index + 1));
  if (char === '"') return skipDoubleQuoted(text, index + 1);
  if (char === '`') return skipBackquoted(text, index + 1);
  if (char === '$' && text[index + 1] === '{') return skipBraced(text, index + 2);
  if (char === '$' && text[index + 1] === '(') return skipParenthesized(text, index + 2);
  return index + 1;
}

function after(index: number): number | undefined {
  return index < 0 ? undefined : index + 1;
}

function skipDoubleQuoted(text: string, from: number): number | undefined {
  for (let index = from; index < text.length;) {
    const char = text[index];
    if (char === '"') return index + 1;
    if (char === "'")
      index += 1; // literal inside double quotes
    else {
      const next = skipQuotedOrNested(text, index);
      if (next === undefined) return undefined;
      index = next;
    }
  }
  return undefined;
}

function skipBackquoted(text: string, from: number): number | undefined {
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '`') return index + 1;
  }
  return undefined;
}

/** `$(…)` or `$((…))`: parentheses counted; a `case` pattern's lone `)` makes the caller's check fail (fail closed). */
function skipParenthesized(text: string, from: number): number | undefined {
  let depth = 1;
  for (let index = from; index < text.length;) {
    const char = text[index];
    if (char === ')') {
      depth -= 1;
      if (depth === 0) return index + 1;
      index += 1;
    } else if (char === '(') {
      depth += 1;
      index += 1;
    } else {
      const next = skipQuotedOrNested(text, index);
      if (next === undefined) return undefined;
      index = next;
    }
  }
  return undefined;
}

/**
 * Whether arithmetic text only holds numbers and operators. A variable name (`x`, `a[i]`, `$x`)
 * is evaluated as arithmetic again, and a value like `a[$(cmd)]` then runs `cmd`: hookloop
 * cannot know a variable's value before the command runs.
 */
export function isConstantArithmetic(text: string): boolean {
  const withoutNumbers = text.replace(/\b(?:0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+|\d+)\b/g, '0');
  return !/[A-Za-z_$`]/.test(withoutNumbers);
}

const SAFE_TRANSFORMS = new Set(['Q', 'E', 'A', 'K', 'a', 'k', 'u', 'U', 'L']);

/**
 * Why the inside of `${…}` (without `${` and `}`) makes Bash evaluate text that hookloop cannot
 * see as code, or undefined: an indirection `${!x}` (the value names a variable, maybe `a[$(cmd)]`),
 * the prompt transform `${x@P}`, or an array subscript or substring offset that is not a constant.
 */
export function lateEvaluation(inside: string): string | undefined {
  const head = /^([!#]?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(inside);
  if (!head)
    return inside.startsWith('!') || inside.startsWith('#') ? undefined : 'an unusual parameter expansion';
  const [whole, prefix, name] = head;
  let rest = inside.slice(whole.length);
  let listsAll = false;
  if (rest.startsWith('[')) {
    const close = subscriptEnd(rest);
    if (close === undefined) return 'an array subscript hookloop cannot read';
    const index = rest.slice(1, close);
    listsAll = index === '@' || index === '*';
    if (!listsAll && !isConstantArithmetic(index))
      return 'an array subscript that is evaluated as arithmetic';
    rest = rest.slice(close + 1);
  }
  // `${!prefix*}`, `${!prefix@}` and `${!name[@]}` only list names; any other `${!x…}` is an indirection.
  if (prefix === '!' && name !== undefined && !(rest === '*' || rest === '@' || (rest === '' && listsAll)))
    return 'an indirect expansion (${!…})';
  if (rest.startsWith('@'))
    return SAFE_TRANSFORMS.has(rest.slice(1)) ? undefined : `the ${JSON.stringify(rest)} transformation`;
  if (rest.startsWith(':') && !/^:[-=+?]/.test(rest)) {
    // `${x:offset:length}`: both are arithmetic.
    return isConstantArithmetic(rest.slice(1).replace(/:/g, ' '))
      ? undefined
      : 'a substring offset that is evaluated as arithmetic';
  }
  return undefined;
}

/** The index of the `]` closing the `[` at 0, or undefined. */
function subscriptEnd(text: string): number | undefined {
  let depth = 0;
  for (let index = 0; index < text.length;) {
    const char = text[index];
    if (char === '[') depth += 1;
    else if (char === ']') {
      depth -= 1;
      if (depth === 0) return index;
    }
    if (char === '[' || char === ']') {
      index += 1;
      continue;
    }
    const next = skipQuotedOrNested(text, index);
    if (next === undefined) return undefined;
    index = next;
  }
  return undefined;
}

/**
 * Variables whose value Bash later expands as a prompt (command substitution included: `PS4='$(cmd)';
 * set -x`) or runs as a file of commands (`BASH_ENV`, `ENV` for a child shell), and builtins whose
 * options name a command or function they call (`mapfile -C cmd`, `compgen -C cmd`, `complete -F f`,
 * `fc -e editor`, `bind -x`): code held in text, run where no rule reads it.
 */
const CODE_VARIABLES = /^(PS[0-4]|PROMPT_COMMAND|BASH_ENV|ENV|BASH_XTRACEFD)(\[|\+?=|$)/;
// Variables whose value other programs run as a command line or load as code: pagers, editors,
// askpass and ssh commands (`GIT_PAGER='rm x' git log`), every `GIT_*` variable but the author and
// committer identity (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_0`/`VALUE_0`, `GIT_DIR`,
// `GIT_EXTERNAL_DIFF` … name programs or a repository whose configuration does), `LD_PRELOAD`/`LD_AUDIT`.
const PROGRAM_VARIABLES =
  /^(?:(?!GIT_(?:AUTHOR|COMMITTER)_(?:NAME|EMAIL|DATE)=)GIT_\w*|(?:\w+_)?(?:PAGER|EDITOR|VISUAL|ASKPASS|SSH_COMMAND|SSH|BROWSER|LESSOPEN|LESSCLOSE|EXTERNAL_DIFF)|LD_PRELOAD|LD_AUDIT)(\+?=)/;
const CALLBACK_OPTIONS: Readonly<Record<string, RegExp>> = {
  mapfile: /^-\w*C/,
  readarray: /^-\w*C/,
  compgen: /^-\w*[CF]/,
  complete: /^-\w*[CF]/,
  fc: /^-/,
  bind: /^-\w*x/,
};

/**
 * Why a command keeps code in text Bash runs later (see `CODE_VARIABLES`), or undefined. `assignments`
 * are the command's leading `NAME=value` words, `argv` its words (`export PS4=…` counts too).
 */
export function codeInText(
  assignments: readonly string[],
  argv: readonly { value: string }[],
): string | undefined {
  const name = argv[0]?.value;
  const assigned = [
    ...assignments,
    ...(name !== undefined && NAME_BUILTINS.has(name) ? argv.slice(1).map((word) => word.value) : []),
  ];
  const variable = assigned.find((text) => CODE_VARIABLES.test(text));
  if (variable !== undefined)
    return `${JSON.stringify(variable.slice(0, 40))} sets a variable whose value Bash runs as code later`;
  // Also behind `env NAME=value` (and `sudo NAME=value`): the words that look like assignments.
  const words = argv.map((word) => word.value);
  const setter = words.findIndex((word) => /(^|\/)(env|sudo|doas)$/.test(word));
  const named = [...assigned, ...(setter < 0 ? [] : words.slice(setter + 1))];
  const program = named.find((text) => PROGRAM_VARIABLES.test(text));
  if (program !== undefined)
    return `${JSON.stringify(program.slice(0, 40))} sets a variable whose value a program runs as a command`;
  const callback = name !== undefined ? CALLBACK_OPTIONS[name] : undefined;
  if (callback && argv.slice(1).some((word) => callback.test(word.value)))
    return `${name} calls a command named in its options`;
  return undefined;
}

const NAME_BUILTINS = new Set([
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'read',
  'mapfile',
  'readarray',
  'wait',
  'getopts',
]);

/**
 * Why a builtin's arguments make Bash evaluate text as arithmetic on values hookloop cannot see,
 * or undefined: `let EXPR`, a variable name with a subscript (`declare 'a[$i]'`, `printf -v 'a[x]'`,
 * `test -v 'a[x]'`, `unset 'a[x]'`, `read 'a[x]'`). `argv` are the command's word values.
 */
export function builtinEvaluation(argv: readonly { value: string; dynamic: boolean }[]): string | undefined {
  const name = argv[0]?.value;
  const args = argv.slice(1);
  const names: { value: string; dynamic: boolean }[] = [];
  if (name === 'let')
    return args.every((word) => !word.dynamic && isConstantArithmetic(word.value))
      ? undefined
      : '`let` evaluates its arguments as arithmetic';
  if (name !== undefined && NAME_BUILTINS.has(name)) names.push(...args);
  else if (name === 'test' || name === '[' || name === '[[' || name === 'printf') {
    args.forEach((word, index) => {
      if (/^-[vR]$/.test(word.value) && args[index + 1])
        names.push(args[index + 1] as { value: string; dynamic: boolean });
      else if (name === 'printf' && /^-v./.test(word.value))
        names.push({ value: word.value.slice(2), dynamic: word.dynamic });
    });
  }
  for (const word of names) {
    const open = word.value.indexOf('[');
    const equals = word.value.indexOf('=');
    if (open < 0 || /^-/.test(word.value) || (equals >= 0 && equals < open)) continue;
    const close = subscriptEnd(word.value.slice(open));
    const index = close === undefined ? undefined : word.value.slice(open + 1, open + close);
    if (index === undefined || (index !== '@' && index !== '*' && !isConstantArithmetic(index)))
      return `${JSON.stringify(word.value)} names an array element whose subscript is evaluated as arithmetic`;
  }
  return undefined;
}
