import path from 'node:path';
import type { SkillDefinition } from '../../skills/load-skills.js';
import { describeHandler, showMatcher } from './effective-handlers.js';

/** One front-matter hook of a skill or command file, for `hooks list --json` (`skillHooks`). */
export interface ListedSkillHook {
  readonly skill: string;
  readonly event: string;
  readonly matcher: string | undefined;
  readonly handler: string;
  readonly once: boolean;
  readonly file: string;
  readonly location: string;
}

/** The front-matter hooks of `skills`, in skill order: inactive until the skill is loaded (skill-hooks.ts). */
export function listSkillHooks(skills: readonly SkillDefinition[]): ListedSkillHook[] {
  return skills.flatMap((skill) =>
    skill.hooks.map((entry) => ({
      skill: skill.name,
      event: entry.event,
      matcher: entry.matcher,
      handler: describeHandler(entry.config),
      once: entry.config.once === true,
      file: entry.source.file,
      location: `hooks.${entry.event}[${entry.groupIndex ?? 0}].hooks[${entry.handlerIndex ?? 0}]`,
    })),
  );
}

/** The text form: one block, two lines per hook; empty when no skill declares hooks. */
export function formatSkillHooks(hooks: readonly ListedSkillHook[], cwd: string): string {
  if (hooks.length === 0) return '';
  const lines = [
    '',
    `Skill hooks (${hooks.length}; active from the moment the skill is loaded, by the Skill tool or as /name, for the rest of the session)`,
  ];
  for (const hook of hooks) {
    const relative = path.relative(cwd, hook.file);
    lines.push(`  ${hook.event} ${showMatcher(hook.matcher)}  ${hook.handler}${hook.once ? '  [once]' : ''}`);
    lines.push(
      `      from skill ${hook.skill}: ${relative.startsWith('..') ? hook.file : relative} ${hook.location}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
