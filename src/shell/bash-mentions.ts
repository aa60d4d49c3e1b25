import path from 'node:path';
import type { CommandPrograms } from './bash-programs.js';
import { relocationOf } from './bash-relocation.js';
import type { ShellWord, SimpleCommand } from './bash-types.js';
import { isReadOnlySimpleCommandText } from './read-only-command.js';

/**
 * What a simple command whose program hookloop does not read may write: `mentions`, the paths its
 * words (its assignments when it runs a program, its arguments, and `fedText` — the here-documents
 * of the line — when it has a `<<` redirection) may name (see `mentionedPaths`), resolved against
 * `bases`; `computed` when its program is only known at run time or runs behind `env -C`/`chroot`,
 * so it may write anything. Nothing for a command whose own words are read-only (`grep x f > out`):
 * it writes only through its redirections, which are listed on their own. Pure; never throws.
 */
export function unreadProgramWrites(
  simple: SimpleCommand,
  programs: CommandPrograms,
  context: { cwd: string; homeDir: string; bases: readonly string[]; fedText: readonly ShellWord[] },
): { mentions?: string[]; computed?: true } {
  const words = simple.argv.map((word) => word.source).join(' ');
  if (
    programs.unknown === undefined &&
    simple.unknown === undefined &&
    isReadOnlySimpleCommandText(words, context.cwd)
  )
    return {};
  // A bare assignment (`d=.claude`) writes nothing; before a program its value may be a path the program uses.
  const assignments =
    simple.argv.length === 0
      ? []
      : simple.assignments.map((text) => ({ value: text, source: text, dynamic: true }));
  const mentions = mentionedPaths(
    [...assignments, ...simple.argv.slice(1), ...(/<</.test(simple.text) ? context.fedText : [])],
    context.bases,
    context.homeDir,
  );
  const computed =
    programs.unknown !== undefined ||
    simple.unknown !== undefined ||
    programs.runs.some((run) => relocationOf(run) !== undefined);
  return { mentions, ...(computed ? { computed: true as const } : {}) };
}

/** The bodies of the here-documents and the words of the here-strings of a line, as (dynamic) words. */
export function hereDocumentTexts(command: string): ShellWord[] {
  const texts: string[] = [];
  for (const match of command.matchAll(
    /<<-?[ \t]*(['"]?)([^\s'"<>;|&]+)\1[^\n]*\n([\s\S]*?)(?:\n[ \t]*\2[ \t]*(?:\n|$)|$)/g,
  ))
    texts.push(match[3] ?? '');
  for (const match of command.matchAll(/<<<[ \t]*('[^']*'|"[^"]*"|\S+)/g)) texts.push(match[1] ?? '');
  return texts.map((value) => ({ value, source: value, dynamic: true }));
}

/**
 * The paths the words of a program hookloop does not read may name, for a program that may write
 * them (`sort -o FILE`, `curl -o FILE`, `tar -C DIR`, `git -C DIR init`, `awk '{print > "FILE"}'`,
 * `python3 -c "open('FILE', 'w')"`). Nobody can tell from the words which of them the program
 * writes; the policy treats each as a path the command may write when a rule or protected path
 * covers it (see bash-write-policy.ts). Each word gives:
 * - its pieces between characters that do not occur in everyday file names as scripts quote them
 *   (blanks, quotes, `( ) < > ; | & = , { } [ ] $` and backquotes), so `--output=FILE`, `of=FILE`
 *   and paths inside a quoted script are found;
 * - a piece that starts `-X` (one dash, one letter) also without it: `-oFILE`;
 * - `~/`, `$HOME/` and `${HOME}/` at the start of a piece are the home directory.
 * Pieces are resolved against every directory in `bases` (the cwd, and the `cd` targets of the
 * line). Options (`--x`), empty pieces and `.`/`..` alone are left out. Pure; never throws.
 */
export function mentionedPaths(
  words: readonly ShellWord[],
  bases: readonly string[],
  homeDir: string,
): string[] {
  const found = new Set<string>();
  for (const word of words) {
    const text = word.value.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, '\u0000HOME');
    for (const raw of text.split(/[\s'"`()<>;|&=,{}[\]$]+/)) {
      for (const piece of variants(raw)) {
        if (piece.startsWith('\u0000HOME/')) found.add(path.join(homeDir, piece.slice('\u0000HOME/'.length)));
        else if (piece.startsWith('~/')) found.add(path.join(homeDir, piece.slice(2)));
        else if (path.isAbsolute(piece)) found.add(path.resolve(piece));
        else if (!piece.includes('\u0000')) for (const base of bases) found.add(path.resolve(base, piece));
      }
    }
  }
  return [...found];
}

function variants(piece: string): string[] {
  if (piece === '' || piece === '.' || piece === '..' || piece.startsWith('--')) return [];
  if (/^-[A-Za-z]./.test(piece)) return [piece.slice(2)];
  if (piece.startsWith('-')) return [];
  return [piece];
}
