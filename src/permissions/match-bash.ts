import {
  parseBashCommand,
  programName,
  programsOf,
  type ProgramRun,
  type ShellWord,
  type SimpleCommand,
} from '../shell/index.js';
import { expandedAbbreviations, globalOptionForms } from './match-bash-forms.js';

/** How a rule meets a command with several parts: see `MatchFlavour` in match-rule.ts. */
type Flavour = 'any' | 'all';

/**
 * Matches a Bash specifier against a whole command line. The command is split into its simple
 * commands (`parseBashCommand`), and each into the programs it runs (`programsOf`: wrappers,
 * `find -exec`, `find -delete` as `rm`, `xargs`).
 * - `any` (deny, ask, `if`): the rule matches when one program run matches, also by the basename of
 *   a path program (`/bin/rm` for `rm:*`), past the program's global options (`git -C . push` for
 *   `git push:*`) and with long options read as git reads abbreviations (`--har` for `--hard`; see
 *   match-bash-forms.ts); an unparsable command, a computed program name or code evaluated from
 *   values (see `SimpleCommand.unknown`) matches every specifier.
 * - `all` (allow): every simple command must be covered: each program it runs must match the rule,
 *   either on its own words or inside an outer program's words when the rule spells it out
 *   (`Bash(sudo npm test)` covers the `npm` of `sudo npm test`; `Bash(env:*)` does not cover the
 *   `rm` of `env rm x`). Wrappers that change nothing a rule is about (`timeout 5`, `nice`, `time`,
 *   `nohup`, `stdbuf`, `setsid`, `command`, a bare `env`) need not be named. A path program only
 *   matches a rule that spells the same path. An unparsable command or an unknown program matches
 *   no allow rule, not even an exact one.
 */
export async function matchBashSpecifier(
  specifier: string,
  command: string,
  flavour: Flavour,
): Promise<boolean> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) return flavour === 'any';
  // An exact rule written for the whole line (`Bash(a && b > out.txt)`, an approver's "always") covers exactly that line…
  if (!hasUnescapedStar(specifier) && matchCommandPattern(specifier, command)) {
    // …unless part of it runs a program no one can name before it runs.
    if (flavour === 'any' || parsed.commands.every((simple) => !isUnknown(simple))) return true;
  }
  if (parsed.commands.length === 0) return matchCommandPattern(specifier, command);
  if (flavour === 'any')
    return parsed.commands.some((simple) => isUnknown(simple) || anyRunMatches(specifier, simple));
  return parsed.commands.every((simple) => !isUnknown(simple) && everyRunCovered(specifier, simple));
}

/**
 * Whether an allow rule without a specifier (`Bash`) may cover `command`: not when it is unparsable
 * or runs a program no one can name before it runs.
 */
export async function bashCommandIsKnown(command: string): Promise<boolean> {
  const parsed = await parseBashCommand(command);
  return parsed.ok && parsed.commands.every((simple) => !isUnknown(simple));
}

function isUnknown(simple: SimpleCommand): boolean {
  return simple.unknown !== undefined || programsOf(simple.argv).unknown !== undefined;
}

function anyRunMatches(specifier: string, simple: SimpleCommand): boolean {
  const patterns = [specifier, basenameOfFirstWord(specifier)];
  const texts = new Set<string>([simple.text.replace(/\\\n/g, ' ')]);
  const prefix = simple.assignments.length > 0 ? `${simple.assignments.join(' ')} ` : '';
  for (const form of wordForms(simple.argv)) texts.add(prefix + form);
  for (const run of programsOf(simple.argv).runs) {
    for (const argv of globalOptionForms(run.argv)) {
      for (const form of wordForms(argv)) texts.add(form);
      // `/bin/rm x` and `./rm x` are `rm x` for deny and ask rules.
      const [program, ...args] = argv;
      if (program)
        for (const form of wordForms([{ ...program, value: programName(program) }, ...args])) texts.add(form);
    }
  }
  return [...texts].some((text) =>
    patterns.some((pattern) =>
      expandedAbbreviations(collapseBlanks(text), pattern).some((form) => matchCommandPattern(pattern, form)),
    ),
  );
}

function everyRunCovered(specifier: string, simple: SimpleCommand): boolean {
  const runs = programsOf(simple.argv).runs;
  const assignments = simple.assignments.length;
  const prefix = assignments > 0 ? `${simple.assignments.join(' ')} ` : '';
  const matchesRun = (run: ProgramRun, index: number): boolean => {
    const texts = wordForms(run.argv).map((form) => (index === 0 ? prefix + form : form));
    if (index === 0) texts.push(simple.text.replace(/\\\n/g, ' '));
    return texts.some((text) => matchCommandPattern(specifier, text));
  };
  if (runs.length === 0)
    return matchCommandPattern(specifier, simple.text) || matchCommandPattern(specifier, prefix.trim());
  const fixed = fixedWords(specifier);
  return runs.every((run, index) => {
    const next = runs[index + 1];
    // A transparent wrapper need not be named when it does run a program.
    if (run.transparent && next !== undefined && next.offset > run.offset && assignments === 0) return true;
    return runs.some((outer, outerIndex) => {
      if (outerIndex > index || !contains(outer, run)) return false;
      if (outerIndex > 0 && assignments > 0) return false; // an allow rule must name the assignments
      const depth = run.offset - outer.offset + (outerIndex === 0 ? assignments : 0);
      return (outerIndex === index || fixed > depth) && matchesRun(outer, outerIndex);
    });
  });
}

function contains(outer: ProgramRun, inner: ProgramRun): boolean {
  return inner.offset >= outer.offset && inner.offset < outer.offset + Math.max(outer.argv.length, 1);
}

/** The command's words joined, unquoted and as written. */
function wordForms(words: readonly ShellWord[]): string[] {
  return [words.map((word) => word.value).join(' '), words.map((word) => word.source).join(' ')];
}

/** How many leading words of a command a specifier fixes (`sudo npm:*` → 2, `git commit *` → 2, an exact one → all). */
function fixedWords(specifier: string): number {
  const pattern = collapseBlanks(specifier);
  if (pattern.endsWith(':*') && !hasUnescapedStar(pattern.slice(0, -2)))
    return pattern.slice(0, -2).split(' ').length;
  if (!hasUnescapedStar(pattern)) return Number.POSITIVE_INFINITY;
  const head = splitOnUnescapedStars(pattern)[0] ?? '';
  const words = head.split(' ');
  // A word cut by the star is not fixed (`git com*`).
  return words.length - 1;
}

/** The specifier with its first word reduced to a basename (`/usr/bin/rm:*` → `rm:*`). */
function basenameOfFirstWord(specifier: string): string {
  return specifier.replace(/^\s*\S*\/([^\s/:]+)/, '$1');
}

/**
 * Matches one command text against a Bash specifier: `prefix:*` (word prefix), a pattern with
 * unescaped `*` (wildcard; `\*` is a literal star), or exact text. Runs of blanks count as one space.
 */
export function matchCommandPattern(specifier: string, text: string): boolean {
  const pattern = collapseBlanks(specifier);
  const command = collapseBlanks(text);
  if (pattern.endsWith(':*') && !hasUnescapedStar(pattern.slice(0, -2))) {
    const prefix = unescapeStars(pattern.slice(0, -2));
    return command === prefix || command.startsWith(`${prefix} `);
  }
  if (!hasUnescapedStar(pattern)) return command === unescapeStars(pattern);
  const pieces = splitOnUnescapedStars(pattern).map((piece) => escapeRegExp(unescapeStars(piece)));
  // `git *` (one star, at the end, after a space) also matches the bare `git`.
  const optionalTail = pieces.length === 2 && pieces[1] === '' && (pieces[0] ?? '').endsWith(' ');
  const source = optionalTail ? `${(pieces[0] ?? '').slice(0, -1)}(?: .*)?` : pieces.join('.*');
  return new RegExp(`^${source}$`, 's').test(command);
}

function collapseBlanks(text: string): string {
  return text.trim().replace(/[ \t]+/g, ' ');
}

function hasUnescapedStar(text: string): boolean {
  return splitOnUnescapedStars(text).length > 1;
}

function splitOnUnescapedStars(text: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === '\\' && index + 1 < text.length) {
      current += char + (text[index + 1] as string);
      index += 1;
    } else if (char === '*') {
      pieces.push(current);
      current = '';
    } else current += char;
  }
  pieces.push(current);
  return pieces;
}

function unescapeStars(text: string): string {
  return text.replace(/\\\*/g, '*');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
