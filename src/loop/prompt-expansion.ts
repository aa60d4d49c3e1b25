import { userMessage } from '../messages/messages.js';
import { activateSkillHooks } from '../skills/skill-hooks.js';
import { expandSlashCall, parseSlashCall } from '../skills/slash-command.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import { contextLabel } from './hook-text.js';
import { expandMcpPromptCall } from './mcp-prompt-expansion.js';
import type { Expansion } from './loop-types.js';
import { mentionedFiles, runShellSpans } from './prompt-attachments.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';

export type { Expansion } from './loop-types.js';

/**
 * When `prompt` (as UserPromptSubmit left it) calls one of `commands` (`/name args`): fires
 * UserPromptExpansion, and unless a hook blocks, runs the body's `` !`cmd` `` spans (one the policy
 * refuses or that fails ends the run: `ended`, with the result text), appends the body's `@path`
 * files, then the command's two user texts in the prompt's place (slash-command.ts), and turns on
 * the command's front-matter hooks for the rest of the session (prompt-attachments.ts).
 * `/mcp__<server>__<prompt>` names a server's prompt when no command has that name
 * (mcp-prompt-expansion.ts). A prompt naming no known command is left alone (`none`): the caller
 * sends it as typed.
 * Returns the hooks' labelled context, for the prompt's system text.
 */
export async function expandPrompt(
  run: RunContext,
  prompt: string,
  commands: readonly SkillDefinition[],
): Promise<Expansion> {
  const call = parseSlashCall(prompt);
  if (call === undefined) return { kind: 'none' };
  const command = commands.find((candidate) => candidate.name === call.name);
  if (command === undefined)
    return call.name.startsWith('mcp__') && run.mcp
      ? expandMcpPromptCall(run, prompt, call, run.mcp.clients)
      : { kind: 'none' };
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
