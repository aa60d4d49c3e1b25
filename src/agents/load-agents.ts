import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import {
  agentHooks,
  checkAgentFields,
  GENERAL_PURPOSE,
  type AgentDefinition,
  type AgentSource,
} from './agent-definition.js';
import { readFrontMatter } from '../markdown/front-matter.js';

/**
 * Where a session's agent definitions come from (Claude Code's places and precedence):
 * `--agents` JSON > `<projectDir>/.claude/agents/*.md` > `<configDir>/agents/*.md` (`~/.claude`) >
 * each plugin's `agents/*.md` (named `<plugin>:<agent>`) > the built-in `general-purpose`.
 */
export interface AgentSources {
  readonly projectDir: string;
  /** The folder that plays `~/.claude`. */
  readonly configDir: string;
  readonly plugins?: readonly { readonly name: string; readonly root: string }[];
  /** The `--agents` value: a JSON object `{ "<name>": { description, prompt, tools, … } }`. */
  readonly agentsJson?: string;
}

/**
 * Loads every definition, the first of each name winning in precedence order. A definition file
 * that cannot be read or has a bad field is skipped with one warning line naming the file and the
 * field (as Claude Code skips it); the `--agents` value is the user's flag, so its errors are thrown.
 * @throws ConfigError `--agents: <field>: <expected>` for an `--agents` value that is not valid.
 */
export function loadAgents(sources: AgentSources): { agents: AgentDefinition[]; warnings: string[] } {
  const warnings: string[] = [];
  const found: AgentDefinition[] = [];
  if (sources.agentsJson !== undefined) found.push(...parseAgentsJson(sources.agentsJson));
  found.push(...readAgentDir(path.join(sources.projectDir, '.claude', 'agents'), 'project', warnings));
  found.push(...readAgentDir(path.join(sources.configDir, 'agents'), 'user', warnings));
  for (const plugin of sources.plugins ?? [])
    found.push(...readAgentDir(path.join(plugin.root, 'agents'), 'plugin', warnings, `${plugin.name}:`));
  found.push(GENERAL_PURPOSE);
  const byName = new Map<string, AgentDefinition>();
  for (const agent of found) if (!byName.has(agent.name)) byName.set(agent.name, agent);
  return { agents: [...byName.values()], warnings };
}

/** The `--agents` JSON. @throws ConfigError naming `--agents` and the field. */
export function parseAgentsJson(text: string): AgentDefinition[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--agents: not valid JSON: ${(error as Error).message}`, { file: '--agents' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError('--agents: expected a JSON object {"<name>": {"description": …, "prompt": …}}', {
      file: '--agents',
    });
  return Object.entries(value as Record<string, unknown>).map(([name, fields]) => {
    const checked = checkAgentFields(fields, `--agents: ${name}`);
    if (checked.prompt === undefined)
      throw new ConfigError(`--agents: ${name}: prompt: expected the agent's system prompt (missing)`, {
        file: '--agents',
        field: `${name}.prompt`,
      });
    return definition(name, checked, checked.prompt, 'cli', `--agents: ${name}`);
  });
}

/** The `*.md` definitions of one folder (none when it does not exist), sorted by file name. */
function readAgentDir(dir: string, source: AgentSource, warnings: string[], prefix = ''): AgentDefinition[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
  const agents: AgentDefinition[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      agents.push(readAgentFile(file, source, prefix));
    } catch (error) {
      warnings.push(error instanceof ConfigError ? error.message : `${file}: ${(error as Error).message}`);
    }
  }
  return agents;
}

/** One agent file: front matter fields, the body as the system prompt. @throws ConfigError naming the file and field. */
export function readAgentFile(file: string, source: AgentSource, prefix = ''): AgentDefinition {
  const { fields, body } = readFrontMatter(fs.readFileSync(file, 'utf8'), file);
  const checked = checkAgentFields(fields, file);
  const name = `${prefix}${checked.name ?? path.basename(file, '.md')}`;
  return { ...definition(name, checked, body, source, file), file };
}

function definition(
  name: string,
  fields: ReturnType<typeof checkAgentFields>,
  prompt: string,
  source: AgentSource,
  where: string,
): AgentDefinition {
  const hooks = agentHooks(fields.hooks, where);
  return {
    name,
    description: fields.description,
    prompt,
    ...(fields.tools !== undefined ? { tools: fields.tools } : {}),
    ...(fields.disallowedTools !== undefined ? { disallowedTools: fields.disallowedTools } : {}),
    ...(fields.model !== undefined ? { model: fields.model } : {}),
    ...(fields.permissionMode !== undefined
      ? { permissionMode: fields.permissionMode as AgentDefinition['permissionMode'] & string }
      : {}),
    ...(fields.maxTurns !== undefined ? { maxTurns: fields.maxTurns } : {}),
    ...(hooks.length > 0 ? { hooks } : {}),
    source,
  };
}
