import path from 'node:path';
import type { SkillDefinition } from './load-skills.js';

/**
 * Slash commands (`/name args` typed as a prompt), expanded as Claude Code 2.1.328 expands them
 * (measured with the reference runner, scenarios cmd-*): the model receives two texts in the
 * prompt's place, the markup
 *
 *     <command-message>name</command-message>
 *     <command-name>/name</command-name>
 *     <command-args>args</command-args>        (left out when there are no arguments)
 *
 * and the command file's body (front matter removed) with the arguments substituted: `$ARGUMENTS`
 * is the whole argument text, `$0`, `$1`, … the words counted from zero (`$ARGUMENTS[N]` the same),
 * a word that is not there leaves its placeholder as written; a body that mentions none of them
 * gets `\n\nARGUMENTS: <args>` appended. A skill's body starts with `Base directory for this skill: <dir>`.
 */

/** A prompt read as a command call: `name` without the slash, `args` trimmed (empty when none). */
export interface SlashCall {
  readonly name: string;
  readonly args: string;
}

/** `/name args` → `{name, args}`; undefined when the prompt is not a command call. */
export function parseSlashCall(prompt: string): SlashCall | undefined {
  const match = /^\/([A-Za-z0-9_][A-Za-z0-9_:.-]*)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? '').trim() };
}

/** The two texts the model receives for `call` of `command` (see the file comment). */
export function expandSlashCall(command: SkillDefinition, call: SlashCall): { markup: string; body: string } {
  const markup = `<command-message>${command.name}</command-message>\n<command-name>/${command.name}</command-name>\n${call.args === '' ? '' : `<command-args>${call.args}</command-args>\n`}`;
  const words = call.args.split(/\s+/).filter((word) => word !== '');
  const text = command.body.replace(/\$\{CLAUDE_SKILL_DIR\}/g, () => command.baseDir);
  const mentions = /\$ARGUMENTS|\$\d/.test(text);
  const substituted = text
    .replace(
      /\$ARGUMENTS\[(\d+)\]|\$(\d+)/g,
      (written, bracketed: string | undefined, bare: string | undefined) =>
        words[Number(bracketed ?? bare)] ?? written,
    )
    .replace(/\$ARGUMENTS/g, () => call.args);
  const body = `${substituted}\n${!mentions && call.args !== '' ? `\n\nARGUMENTS: ${call.args}` : ''}`;
  const isSkill = path.basename(command.file) === 'SKILL.md';
  return { markup, body: isSkill ? `Base directory for this skill: ${command.baseDir}\n\n${body}` : body };
}

/** One `` !`cmd` `` of a command body: `pattern` as written (with the `!` and backticks), `command` inside. */
export interface ShellLine {
  readonly pattern: string;
  readonly command: string;
}

/**
 * The `` !`cmd` `` spans of an expanded command body, in order. Claude Code runs each before the
 * prompt is sent and puts its output where the span was; a span does not cross a line.
 */
export function shellLines(body: string): ShellLine[] {
  return [...body.matchAll(/!`([^`\n]+)`/g)].map((match) => ({ pattern: match[0], command: match[1]! }));
}

/**
 * The paths of the `@path` mentions in `text`, in order, each once: an `@` at the start or after
 * whitespace, up to the next whitespace, without trailing punctuation (`@sub/b.md,` → `sub/b.md`,
 * `@sub/` → `sub`), as Claude Code 2.1.328 reads them. The text itself keeps the mentions as written.
 */
export function fileMentions(text: string): string[] {
  const found = [...text.matchAll(/(?:^|\s)@(\S*\w)/g)].map((match) => match[1]!);
  return [...new Set(found)];
}
