import fs from 'node:fs';
import { resolveToolPath } from '../tools/builtin/read.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import { fileMentions, shellLines } from '../skills/slash-command.js';
import { callToolDirectly } from './direct-tool-call.js';
import type { RunContext } from './run-context.js';

/*
 * What a prompt brings along before it is sent, as Claude Code 2.1.328 does it (measured with the
 * reference runner, scenarios cmd-shell-* and cmd-at-*): a slash command's `` !`cmd` `` spans run
 * and are replaced by their output, and each `@path` mention of the prompt (or of the expanded
 * command) is read and sent ahead of it, as if the Read tool (a folder: `ls`) had been called.
 * Both go through the permission policy without hooks (direct-tool-call.ts).
 */

/** A command body with its shell spans replaced, or the result text that ends the run instead. */
export type ShellExpansion =
  { readonly kind: 'expanded'; readonly body: string } | { readonly kind: 'ended'; readonly result: string };

/**
 * Runs the `` !`cmd` `` spans of `body` (the expanded text of `command`) one after another with
 * the Bash tool, the command file's `allowed-tools` approving like allow rules, and puts each one's
 * output (the Bash result text, `(Bash completed with no output)` when empty) in its place. A span
 * the policy does not allow ends the run before any model call with `Shell command permission check
 * failed for pattern "<span>": <reason>`; one that exits non-zero with `Shell command failed for
 * pattern "<span>": [stderr]\n<output>`. Never throws.
 */
export async function runShellSpans(
  run: RunContext,
  command: SkillDefinition,
  body: string,
): Promise<ShellExpansion> {
  let expanded = body;
  let index = 0;
  for (const { pattern, command: line } of shellLines(body)) {
    index += 1;
    const outcome = await callToolDirectly(
      run,
      `command-shell-${index}`,
      'Bash',
      { command: line },
      { allow: command.allowedTools, source: command.file },
    );
    if (outcome.kind === 'refused')
      return {
        kind: 'ended',
        result: `Shell command permission check failed for pattern "${pattern}": ${outcome.message}`,
      };
    if (outcome.kind === 'failed')
      return {
        kind: 'ended',
        result: `Shell command failed for pattern "${pattern}": [stderr]\n${withoutExitLine(outcome.message)}`,
      };
    expanded = expanded.replace(pattern, () => outcome.text);
  }
  return { kind: 'expanded', body: expanded };
}

/**
 * The user texts that carry the `@path` mentions of `text` ahead of the prompt: for each file the
 * policy lets the session read, `Called the Read tool with the following input: {"file_path":…}`
 * and `Result of calling the Read tool:\n<numbered lines>`, each in a `<system-reminder>`; for a
 * folder, the same for `ls <folder>` as a Bash call. A path that does not exist, or that the policy
 * does not allow (a deny rule, outside the working directories), is left out without a word.
 * Claude Code ends every text but the first and the last with a newline; so does this. Never throws.
 */
export async function mentionedFiles(run: RunContext, text: string): Promise<string[]> {
  const texts: string[] = [];
  let index = 0;
  for (const mention of fileMentions(text)) {
    index += 1;
    const file = resolveToolPath(mention, run.state.cwd);
    let isFolder: boolean;
    try {
      isFolder = fs.statSync(file).isDirectory();
    } catch {
      continue;
    }
    const [toolName, input] = isFolder
      ? ['Bash', { command: `ls ${shellWord(file)}`, description: `Lists files in ${file}` }]
      : ['Read', { file_path: file }];
    const outcome = await callToolDirectly(run, `mention-${index}`, toolName, input);
    if (outcome.kind !== 'ran') continue;
    texts.push(
      reminder(`Called the ${toolName} tool with the following input: ${JSON.stringify(input)}`),
      reminder(`Result of calling the ${toolName} tool:\n${outcome.text}`),
    );
  }
  return texts.map((item, at) => (at === 0 || at === texts.length - 1 ? item : `${item}\n`));
}

function reminder(body: string): string {
  return `<system-reminder>\n${body}\n</system-reminder>`;
}

/** A Bash failure's text without its `Exit code N` headline. */
function withoutExitLine(message: string): string {
  return message.replace(/^Exit code \d+\n?/, '');
}

/** `word` as one shell word: as is when it has only safe characters, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
