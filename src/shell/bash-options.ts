import type { ShellWord } from './bash-types.js';

/** Whether an option takes no value, a required value (attached or the next word) or an optional attached value. */
export type OptionArity = 'flag' | 'value' | 'optional';

/**
 * The options a program accepts, GNU style. `stopAtOperand`: options end at the first operand (the
 * wrappers: `env`, `sudo`, `xargs` … whose first operand is the program); otherwise options may
 * come anywhere before `--` (GNU's argument permutation, as `cp`, `rm`, `sed` read them).
 * `numeric`: a `-N` option (`nice -5`) is allowed.
 */
export interface OptionSpec {
  readonly short?: Readonly<Record<string, OptionArity>>;
  readonly long?: Readonly<Record<string, OptionArity>>;
  readonly stopAtOperand?: boolean;
  readonly numeric?: boolean;
}

/** One option as read: its canonical name (`-t`, or `--target-directory` for any abbreviation) and value. */
export interface ReadOption {
  readonly name: string;
  readonly value?: ShellWord;
}

/**
 * What `readOptions` found. `rest` is the index of the first word after the options (for
 * `stopAtOperand` specs, the program of a wrapper). `unknown` says why the words cannot be read
 * with confidence: an unknown or ambiguous option, a missing value, or a word that may expand to
 * an option (`$x`): then the caller must not trust `operands` or `options`.
 */
export interface ReadOptions {
  readonly options: ReadOption[];
  readonly operands: ShellWord[];
  readonly rest: number;
  readonly unknown?: string;
}

/**
 * Reads the options of `args` (a program's words after its name) as GNU getopt_long does: short
 * option clusters (`-rf`), attached values (`-t/dir`, `--target=dir`), and long options
 * abbreviated to any unambiguous prefix (`--target` for `--target-directory`). Never throws.
 */
export function readOptions(args: readonly ShellWord[], spec: OptionSpec): ReadOptions {
  const options: ReadOption[] = [];
  const operands: ShellWord[] = [];
  let index = 0;
  const fail = (unknown: string): ReadOptions => ({ options, operands, rest: index, unknown });
  for (; index < args.length; index += 1) {
    const word = args[index] as ShellWord;
    const text = word.value;
    if (word.dynamic && !/^[^-$`*?[{]/.test(word.value)) {
      // `$x`, `"$x"`, `$(…)`, `*`, `{-t,x}`: may expand to an option (or to nothing, or to several words).
      return fail(`the word ${JSON.stringify(word.source)} may expand to an option`);
    }
    if (text === '--' && !word.dynamic) {
      index += 1;
      break;
    }
    if (!text.startsWith('-') || text === '-') {
      if (spec.stopAtOperand) break;
      operands.push(word);
      continue;
    }
    if (text.startsWith('--')) {
      const [written, attached] = splitOnce(text.slice(2), '=');
      const name = longName(written, spec.long ?? {});
      if (name === undefined) return fail(`unknown or ambiguous option --${written}`);
      const arity = (spec.long ?? {})[name] as OptionArity;
      if (arity === 'flag' && attached !== undefined) return fail(`--${name} takes no value`);
      if (arity === 'value' && attached === undefined) {
        const value = args[index + 1];
        if (value === undefined) return fail(`--${name} needs a value`);
        options.push({ name: `--${name}`, value });
        index += 1;
      } else
        options.push({
          name: `--${name}`,
          ...(attached !== undefined ? { value: part(word, attached) } : {}),
        });
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      options.push({ name: '-N', value: part(word, text.slice(1)) });
      continue;
    }
    for (let letter = 1; letter < text.length; letter += 1) {
      const char = text[letter] as string;
      const arity = (spec.short ?? {})[char];
      if (arity === undefined) return fail(`unknown option -${char}`);
      if (arity === 'flag') {
        options.push({ name: `-${char}` });
        continue;
      }
      const attached = text.slice(letter + 1);
      if (attached !== '' || arity === 'optional')
        options.push({ name: `-${char}`, ...(attached !== '' ? { value: part(word, attached) } : {}) });
      else {
        const value = args[index + 1];
        if (value === undefined) return fail(`-${char} needs a value`);
        options.push({ name: `-${char}`, value });
        index += 1;
      }
      break;
    }
  }
  if (!spec.stopAtOperand) for (; index < args.length; index += 1) operands.push(args[index] as ShellWord);
  return { options, operands, rest: index };
}

/** The long option `written` names: an exact name, else the only one it is a prefix of. */
function longName(written: string, long: Readonly<Record<string, OptionArity>>): string | undefined {
  if (written in long) return written;
  const candidates = Object.keys(long).filter((name) => name.startsWith(written));
  return candidates.length === 1 ? candidates[0] : undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** An option's attached value as a word of its own (dynamic if the whole word is). */
function part(word: ShellWord, value: string): ShellWord {
  return { value, source: value, dynamic: word.dynamic };
}

/** `value` of the last option named one of `names`, if any. */
export function optionValue(read: ReadOptions, ...names: string[]): ShellWord | undefined {
  return read.options.filter((option) => names.includes(option.name)).at(-1)?.value;
}

/** Whether an option named one of `names` was given. */
export function hasOption(read: ReadOptions, ...names: string[]): boolean {
  return read.options.some((option) => names.includes(option.name));
}
