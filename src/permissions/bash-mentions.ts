import path from 'node:path';
import type { ShellWord } from './bash-types.js';

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
export function mentionedPaths(words: readonly ShellWord[], bases: readonly string[], homeDir: string): string[] {
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
