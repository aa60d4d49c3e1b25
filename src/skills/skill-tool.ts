import { z } from 'zod';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import type { SkillDefinition } from './load-skills.js';

/** What PostToolUse hooks see of a Skill call, as Claude Code reports it: `{success, commandName}`. */
export interface SkillOutput {
  readonly success: true;
  readonly commandName: string;
  readonly allowedTools?: readonly string[];
}

/** How the skill listing begins (Claude Code's words). */
export const SKILL_LISTING_START = 'The following skills are available for use with the Skill tool:';

/**
 * The listing the model gets with the first prompt, as Claude Code words it: one line per skill the
 * model may invoke (`- <name>: <description>`), or undefined when there is none.
 */
export function skillListing(skills: readonly SkillDefinition[]): string | undefined {
  const listed = skills.filter((skill) => skill.modelInvocable);
  if (listed.length === 0) return undefined;
  return `${SKILL_LISTING_START}\n\n${listed.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n')}`;
}

/**
 * What the model reads after a Skill call's result (user text, as Claude Code sends it): `Base
 * directory for this skill: <dir>`, then the instructions with `$ARGUMENTS` (and `$1`, `$2`, …)
 * replaced by `args` and `${CLAUDE_SKILL_DIR}` by the folder; arguments the body never mentions
 * follow as `ARGUMENTS: <args>`.
 */
export function skillInstructions(skill: SkillDefinition, args: string | undefined): string {
  const words = (args ?? '').split(/\s+/).filter((word) => word !== '');
  let body = skill.body.replace(/\$\{CLAUDE_SKILL_DIR\}/g, () => skill.baseDir);
  const mentions = /\$ARGUMENTS|\$\d/.test(body);
  body = body
    .replace(/\$ARGUMENTS/g, () => args ?? '')
    .replace(/\$(\d+)/g, (_, index: string) => words[Number(index) - 1] ?? '');
  // The file's closing newline stays, as in Claude Code's text (skill-hooks).
  body = `${body}\n`;
  if (!mentions && args !== undefined && args.trim() !== '') body = `${body}\n\nARGUMENTS: ${args}`;
  return `Base directory for this skill: ${skill.baseDir}\n\n${body}`;
}

/**
 * The Skill tool (Claude Code's name and input `{skill, args}`): loads a skill's instructions into
 * the conversation. The result is `Launching skill: <name>`; the instructions follow as user text
 * (`followUp`). It runs nothing by itself, so it is read-only; hooks match `Skill` like any tool.
 * An unknown skill, or one with `disable-model-invocation`, is a validation error (`Unknown skill: <name>`).
 */
export function skillTool(
  skills: readonly SkillDefinition[],
  onLoad: (skill: SkillDefinition) => void = () => undefined,
): AnyTool {
  const byName = new Map(skills.filter((skill) => skill.modelInvocable).map((skill) => [skill.name, skill]));
  const find = (name: string) => byName.get(name) ?? byName.get(name.replace(/^\//, ''));
  const tool = defineTool({
    name: 'Skill',
    description:
      'Execute a skill within the main conversation. Skills provide specialized instructions for a task; the available skills are listed in the conversation. Pass the skill name as `skill` and optional arguments as `args`.',
    inputSchema: z.strictObject({ skill: z.string(), args: z.string().optional() }),
    kind: 'other',
    readOnly: true,
    validateInput: async (input) =>
      find(input.skill) === undefined ? `Unknown skill: ${input.skill}` : undefined,
    handler: (input): SkillOutput => {
      const skill = find(input.skill)!;
      // Its front-matter hooks guard the rest of the session from here on (skill-hooks.ts).
      onLoad(skill);
      return {
        success: true,
        commandName: skill.name,
        ...(skill.allowedTools.length > 0 ? { allowedTools: skill.allowedTools } : {}),
      };
    },
    render: (output: SkillOutput) => `Launching skill: ${output.commandName}`,
  });
  return {
    ...tool,
    followUp: (output: SkillOutput, input: { skill: string; args?: string }) =>
      skillInstructions(find(output.commandName) ?? find(input.skill)!, input.args),
  };
}
