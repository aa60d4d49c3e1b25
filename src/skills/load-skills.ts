import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { readFrontMatter } from '../markdown/front-matter.js';

/**
 * A skill the Skill tool can load (Claude Code's skills: `.claude/skills/<name>/SKILL.md`,
 * `~/.claude/skills/<name>/SKILL.md`, a plugin's `skills/<name>/SKILL.md`; and the older command
 * files `.claude/commands/*.md`, `~/.claude/commands/*.md`, a plugin's `commands/*.md`, which
 * Claude Code also runs as skills).
 *
 * - `name`: what the model passes as `skill` (plugin skills `<plugin>:<name>`).
 * - `description`: the listing line; the front matter's, else the body's first line of prose.
 * - `body`: the instructions the model gets when it invokes the skill.
 * - `baseDir`: the skill's folder, given with the instructions so its relative paths resolve.
 * - `allowedTools`: as written (see docs/compatibility.md: hookloop does not pre-approve them).
 * - `modelInvocable`: false for `disable-model-invocation: true` (not listed, refused by the tool).
 */
export interface SkillDefinition {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  readonly baseDir: string;
  readonly allowedTools: readonly string[];
  readonly modelInvocable: boolean;
  readonly file: string;
}

/** Where a session's skills come from; see loadSkills. */
export interface SkillSources {
  readonly projectDir: string;
  /** The folder that plays `~/.claude`. */
  readonly configDir: string;
  readonly plugins?: readonly { readonly name: string; readonly root: string }[];
}

const toolNames = z.union([z.array(z.string()), z.string().transform((text) => text.split(/[\s,]+(?![^(]*\))/).filter((name) => name !== ''))]);
const skillFields = z.object({
  name: z.string().regex(/^[A-Za-z0-9_:.-]+$/, 'letters, digits, "-", "_", ":" or "."').optional(),
  description: z.string().optional(),
  'allowed-tools': toolNames.optional(),
  'disable-model-invocation': z.boolean().optional(),
});

/**
 * Every skill, the first of each name winning: user skills, then project skills (Claude Code:
 * personal over project), then plugin skills (namespaced, so they never collide); skills before
 * command files of the same name. A file with a bad field is skipped with one warning line naming
 * the file and the field.
 */
export function loadSkills(sources: SkillSources): { skills: SkillDefinition[]; warnings: string[] } {
  const warnings: string[] = [];
  const found: SkillDefinition[] = [];
  const roots: { dir: string; prefix: string }[] = [
    { dir: sources.configDir, prefix: '' },
    { dir: path.join(sources.projectDir, '.claude'), prefix: '' },
    ...(sources.plugins ?? []).map((plugin) => ({ dir: plugin.root, prefix: `${plugin.name}:` })),
  ];
  for (const { dir, prefix } of roots) {
    for (const name of entries(path.join(dir, 'skills'))) found.push(...attempt(() => readSkillFile(path.join(dir, 'skills', name, 'SKILL.md'), prefix, name), warnings));
    for (const name of entries(path.join(dir, 'commands')).filter((file) => file.endsWith('.md'))) found.push(...attempt(() => readSkillFile(path.join(dir, 'commands', name), prefix, path.basename(name, '.md')), warnings));
  }
  const byName = new Map<string, SkillDefinition>();
  for (const skill of found) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  return { skills: [...byName.values()], warnings };
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function attempt(read: () => SkillDefinition | undefined, warnings: string[]): SkillDefinition[] {
  try {
    const skill = read();
    return skill ? [skill] : [];
  } catch (error) {
    warnings.push(error instanceof ConfigError ? error.message : (error as Error).message);
    return [];
  }
}

/**
 * One skill file (a folder without SKILL.md is no skill: undefined). @throws ConfigError
 * `<file>: <field>: <expected>, got <value>` for a bad front-matter field.
 */
export function readSkillFile(file: string, prefix: string, fallbackName: string): SkillDefinition | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { fields, body } = readFrontMatter(text, file);
  const parsed = skillFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new ConfigError(`${file}: ${field}: ${issue.message.replace(/^Invalid input: /, '')}, got ${JSON.stringify(fields[field])}`, { file, field });
  }
  const description = parsed.data.description ?? body.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))?.trim() ?? '';
  return {
    name: `${prefix}${parsed.data.name ?? fallbackName}`,
    description,
    body,
    baseDir: path.dirname(file),
    allowedTools: parsed.data['allowed-tools'] ?? [],
    modelInvocable: parsed.data['disable-model-invocation'] !== true,
    file,
  };
}
