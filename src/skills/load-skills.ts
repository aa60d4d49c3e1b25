import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { readFrontMatter } from '../markdown/front-matter.js';
import type { ExternalHandlerEntry } from '../hooks/transports/settings-handlers.js';
import { frontMatterHooks } from './skill-hooks.js';

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
 * - `allowedTools`: as written; they approve, like allow rules, a command file's `` !`cmd` `` spans
 *   (prompt-attachments.ts), and nothing else.
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
  /** Front-matter `hooks`, active once the skill is loaded (skill-hooks.ts); empty when it has none. */
  readonly hooks: readonly ExternalHandlerEntry[];
  /** Where it came from, as UserPromptExpansion's `command_source` says it: `userSettings`, `projectSettings` or `plugin`. */
  readonly source: SkillSource;
  /** Front-matter `argument-hint`, `model`, when given. */
  readonly argumentHint?: string;
  readonly model?: string;
}

/** Where a skill or command file was found (see `SkillDefinition.source`). */
export type SkillSource = 'userSettings' | 'projectSettings' | 'plugin';

/** Where a session's skills come from; see loadSkills. */
export interface SkillSources {
  readonly projectDir: string;
  /** The folder that plays `~/.claude`. */
  readonly configDir: string;
  readonly plugins?: readonly { readonly name: string; readonly root: string }[];
}

const toolNames = z.union([
  z.array(z.string()),
  z.string().transform((text) => text.split(/[\s,]+(?![^(]*\))/).filter((name) => name !== '')),
]);
const skillFields = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]+$/, 'letters, digits, "-", "_", ":" or "."')
    .optional(),
  description: z.string().optional(),
  'allowed-tools': toolNames.optional(),
  'disable-model-invocation': z.boolean().optional(),
  'argument-hint': z.string().optional(),
  model: z.string().optional(),
  hooks: z.unknown().optional(),
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
  const roots: { dir: string; prefix: string; source: SkillSource }[] = [
    { dir: sources.configDir, prefix: '', source: 'userSettings' },
    { dir: path.join(sources.projectDir, '.claude'), prefix: '', source: 'projectSettings' },
    ...(sources.plugins ?? []).map((plugin) => ({
      dir: plugin.root,
      prefix: `${plugin.name}:`,
      source: 'plugin' as const,
    })),
  ];
  for (const { dir, prefix, source } of roots) {
    const read = (file: string, name: string) =>
      attempt(() => readSkillFile(file, prefix, name, source, warnings), warnings);
    for (const name of entries(path.join(dir, 'skills')))
      found.push(...read(path.join(dir, 'skills', name, 'SKILL.md'), name));
    // Command files in subfolders are namespaced by folder, as Claude Code names them: commands/ns/sub.md is `ns:sub`.
    for (const name of commandFiles(path.join(dir, 'commands')))
      found.push(
        ...read(path.join(dir, 'commands', name), name.slice(0, -'.md'.length).split(path.sep).join(':')),
      );
  }
  const byName = new Map<string, SkillDefinition>();
  for (const skill of found) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  return { skills: [...byName.values()], warnings };
}

/** The `.md` files under `dir`, as paths relative to it, subfolders included (sorted). */
function commandFiles(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const name of entries(path.join(dir, prefix))) {
    const relative = prefix === '' ? name : path.join(prefix, name);
    let directory = false;
    try {
      directory = fs.statSync(path.join(dir, relative)).isDirectory();
    } catch {
      continue;
    }
    if (directory) found.push(...commandFiles(dir, relative));
    else if (name.endsWith('.md')) found.push(relative);
  }
  return found;
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
export function readSkillFile(
  file: string,
  prefix: string,
  fallbackName: string,
  source: SkillSource = 'projectSettings',
  warnings: string[] = [],
): SkillDefinition | undefined {
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
    throw new ConfigError(
      `${file}: ${field}: ${issue.message.replace(/^Invalid input: /, '')}, got ${JSON.stringify(fields[field])}`,
      { file, field },
    );
  }
  const hooks = frontMatterHooks(parsed.data.hooks, file);
  warnings.push(...hooks.warnings);
  const description =
    parsed.data.description ??
    body
      .split('\n')
      .find((line) => line.trim() !== '' && !line.startsWith('#'))
      ?.trim() ??
    '';
  return {
    name: `${prefix}${parsed.data.name ?? fallbackName}`,
    description,
    body,
    baseDir: path.dirname(file),
    allowedTools: parsed.data['allowed-tools'] ?? [],
    modelInvocable: parsed.data['disable-model-invocation'] !== true,
    file,
    hooks: hooks.entries,
    source,
    ...(parsed.data['argument-hint'] !== undefined ? { argumentHint: parsed.data['argument-hint'] } : {}),
    ...(parsed.data.model !== undefined ? { model: parsed.data.model } : {}),
  };
}
