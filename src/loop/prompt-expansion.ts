import { userMessage } from '../messages/messages.js';
import { activateSkillHooks } from '../skills/skill-hooks.js';
import { expandSlashCall, parseSlashCall } from '../skills/slash-command.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import { contextLabel } from './hook-text.js';
import { mentionedFiles, runShellSpans } from './prompt-attachments.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';

/** What became of a prompt that may be a slash command. */
export type Expansion =
  | { readonly kind: 'none' }
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'ended'; readonly result: string }
  | { readonly kind: 'expanded'; readonly context: readonly string[] };

/**
 * When `prompt` (as UserPromptSubmit left it) calls one of `commands` (`/name args`): fires
 * UserPromptExpansion, and unless a hook blocks, runs the body's `` !`cmd` `` spans (one the policy
 * refuses or that fails ends the run: `ended`, with the result text), appends the body's `@path`
 * files, then the command's two user texts in the prompt's place (slash-command.ts), and turns on
 * the command's front-matter hooks for the rest of the session (prompt-attachments.ts). A prompt naming no known command is left alone (`none`): the caller sends it as typed.
 * Returns the hooks' labelled context, for the prompt's system text.
 */
export async function expandPrompt(
  run: RunContext,
  prompt: string,
  commands: readonly SkillDefinition[],
): Promise<Expansion> {
  const call = parseSlashCall(prompt);
  const command = call === undefined ? undefined : commands.find((candidate) => candidate.name === call.name);
  if (call === undefined || command === undefined) return { kind: 'none' };
  const answered = await fireHook(run, 'UserPromptExpansion', {
    expansion_type: 'slash_command',
    command_name: command.name,
    command_args: call.args,
    command_source: command.source,
    prompt,
  });
  if (answered.blocks.length > 0)
    return { kind: 'blocked', reason: answered.blocks.map((block) => block.reason).join('\n') };
  const { markup, body: written } = expandSlashCall(command, call);
  const shell = await runShellSpans(run, command, written);
  if (shell.kind === 'ended') return shell;
  const body = shell.body;
  for (const text of await mentionedFiles(run, body)) appendMessage(run, userMessage(text));
  appendMessage(run, userMessage(markup));
  appendMessage(run, userMessage(body));
  for (const text of activateSkillHooks(run.hooks, command, run.state.projectDir, run.configDir))
    run.emit({ type: 'warning', text });
  return {
    kind: 'expanded',
    context: answered.contexts.map((text) => contextLabel('UserPromptExpansion', undefined, text)),
  };
}
