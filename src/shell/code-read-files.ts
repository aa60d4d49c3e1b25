import fs from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash-types.js';

/*
 * The files code-reads.ts opens to follow what a program runs: a package.json's scripts and a
 * makefile's includes and recipes.
 */

// npm's aliases for the scripts it runs by name; anything else runs every script hookloop cannot rule out.
const NAMED_SCRIPTS: Readonly<Record<string, string>> = {
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
};
const RUN_SUBCOMMANDS = new Set(['run', 'run-script', 'rum', 'urn']);

/**
 * The package.json scripts a package manager run may start: `test` (with `pretest`/`posttest`),
 * `run X` (and yarn's, pnpm's and bun's `X`) with its pre and post scripts; every script for any
 * other subcommand (install and publish run lifecycle scripts, and a manager's own commands are
 * not all known here). Empty when the file is missing or not JSON.
 */
export function packageScripts(file: string, manager: string, args: readonly ShellWord[]): string[] {
  let scripts: Record<string, unknown>;
  try {
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts?: unknown };
    if (typeof json.scripts !== 'object' || json.scripts === null) return [];
    scripts = json.scripts as Record<string, unknown>;
  } catch {
    return [];
  }
  const operands = args.filter((word) => !word.value.startsWith('-')).map((word) => word.value);
  const [first, second] = operands;
  let wanted: string | undefined = first === undefined ? undefined : NAMED_SCRIPTS[first];
  if (first !== undefined && RUN_SUBCOMMANDS.has(first)) wanted = second;
  else if (wanted === undefined && manager !== 'npm' && first !== undefined && first in scripts)
    wanted = first;
  const names = wanted === undefined ? Object.keys(scripts) : [`pre${wanted}`, wanted, `post${wanted}`];
  return names.map((name) => scripts[name]).filter((text): text is string => typeof text === 'string');
}

/**
 * What a makefile makes make run: the literal files it `include`s (`include`, `-include`,
 * `sinclude`, resolved from `directory`), `computed` when an include names a variable (it may be
 * any file), and its recipe lines that hold no make variable, to be read as command lines in
 * their turn (`./build.sh`). A missing or unreadable makefile reads as nothing.
 */
export function readMakefile(
  makefile: string,
  directory: string,
): { includes: string[]; computed: boolean; recipes: string[] } {
  const found = { includes: [] as string[], computed: false, recipes: [] as string[] };
  let text: string;
  try {
    text = fs.readFileSync(makefile, 'utf8');
  } catch {
    return found;
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('\t')) {
      const recipe = line.slice(1).replace(/^[@+-]+/, '');
      if (!recipe.includes('$')) found.recipes.push(recipe);
      continue;
    }
    const match = /^\s*-?s?include\s+(.+)$/.exec(line);
    if (!match) continue;
    for (const word of (match[1] as string).split(/\s+/)) {
      if (word.includes('$')) found.computed = true;
      else if (word !== '') found.includes.push(path.resolve(directory, word));
    }
  }
  return found;
}
