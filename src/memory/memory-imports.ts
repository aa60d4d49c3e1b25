import os from 'node:os';
import path from 'node:path';

/**
 * The `@path` imports of a memory file's text, as absolute paths in the order they appear.
 * An import is `@` at the start of a line or after white space, followed by a path: relative to
 * the importing file's folder (`@docs/style.md`, `@./x.md`), home-relative (`@~/notes.md`) or
 * absolute. Text inside code — fenced blocks (``` or ~~~) and inline code spans — is not searched,
 * so an example in backticks is not loaded. `\ ` keeps a space inside a path. Pure; never throws.
 */
export function memoryImports(text: string, file: string, homeDir: string = os.homedir()): string[] {
  const found: string[] = [];
  for (const line of outsideCode(text)) {
    for (const match of line.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
      const target = cleanTarget(match[1]!);
      if (target === undefined) continue;
      const resolved = target.startsWith('~/')
        ? path.join(homeDir, target.slice(2))
        : path.resolve(path.dirname(file), target);
      if (!found.includes(resolved)) found.push(resolved);
    }
  }
  return found;
}

/** The path of an `@` word, or undefined when the word is not a path (an e-mail's tail, a handle, punctuation). */
function cleanTarget(word: string): string | undefined {
  const target = word.replace(/\\ /g, ' ').replace(/[),.;:!?]+$/, '');
  if (target === '' || target.startsWith('@')) return undefined;
  // `@user` alone is a mention, not a file: a path has a folder part or an extension.
  if (!target.includes('/') && !/\.[A-Za-z0-9]+$/.test(target)) return undefined;
  return target;
}

/** The lines of `text` with fenced code blocks dropped and inline code spans blanked. */
function outsideCode(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    lines.push(line.replace(/(`+)[\s\S]*?\1/g, ' '));
  }
  return lines;
}
