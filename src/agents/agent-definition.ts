import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { isHookEventName } from '../hooks/event-names.js';
import { parseSettingsText } from '../hooks/settings/load-settings.js';
import type { ExternalHandlerEntry } from '../hooks/transports/settings-handlers.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';

/**
 * A subagent type the Agent tool can start (Claude Code's subagents: `.claude/agents/*.md`,
 * `~/.claude/agents/*.md`, plugin `agents/`, `--agents JSON`, and the built-in `general-purpose`).
 *
 * - `name`: the `subagent_type` the model passes, and the `agent_type` hooks see.
 * - `prompt`: the subagent's system prompt (the Markdown body of a file).
 * - `tools`: the only tools it is offered (undefined: every tool of the session but Agent's own
 *   recursion limits); `disallowedTools` are removed from that. Names as in permission rules; MCP
 *   tools by full name or server prefix (`mcp__server`).
 * - `model`: `inherit` (default) or a model name the run's `agentModel` resolves.
 * - `permissionMode`: a mode the subagent runs in — only ever as strict as the parent's or stricter
 *   (see `effectiveMode` in run-subagent.ts).
 * - `maxTurns`: its model-request budget (default 100, as a session's).
 * - `hooks`: front-matter hooks in the settings format, run only for this agent's subagents' events
 *   (a `Stop` hook becomes `SubagentStop`, as in Claude Code), after the session's own.
 * - `source`, `file`: where it was defined, for messages and `agents list`.
 */
export interface AgentDefinition {
  readonly name: string;
  readonly description: string;
  readonly prompt: string;
  readonly tools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  readonly model?: string;
  readonly permissionMode?: PermissionMode | 'auto';
  readonly maxTurns?: number;
  readonly hooks?: readonly ExternalHandlerEntry[];
  readonly source: AgentSource;
  readonly file?: string;
}

/** Where an agent definition came from, highest precedence first: `--agents`, project, user, plugin, built-in. */
export type AgentSource = 'cli' | 'project' | 'user' | 'plugin' | 'built-in';

/** A list field as Claude Code reads it: a YAML list, or one string of comma-separated names. */
const toolList = z.union([
  z.array(z.string()),
  z.string().transform((text) =>
    text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  ),
]);

/** The fields of a definition (front matter or an `--agents` entry); unknown fields are ignored, as Claude Code does (`color`, `skills`, `memory`, …). */
export const agentFieldsSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]+$/, 'letters, digits, "-", "_", ":" or "."')
    .optional(),
  description: z.string().min(1),
  prompt: z.string().optional(),
  tools: toolList.optional(),
  disallowedTools: toolList.optional(),
  model: z.string().optional(),
  permissionMode: z.enum([...PERMISSION_MODES, 'auto'] as [string, ...string[]]).optional(),
  maxTurns: z.number().int().positive().optional(),
  hooks: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Checks one definition's fields. `where` names the file (or `--agents`) and is the start of every
 * error line. @throws ConfigError `<where>: <field>: <expected>` for the first bad field.
 */
export function checkAgentFields(value: unknown, where: string): z.infer<typeof agentFieldsSchema> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`${where}: expected an object of agent fields (description, prompt, tools, …)`, {
      file: where,
    });
  const parsed = agentFieldsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || '(root)';
  const got = valueAtPath(value, issue.path);
  const expected =
    issue.code === 'invalid_value'
      ? `one of ${(issue as { values: unknown[] }).values.map((option) => JSON.stringify(option)).join(', ')}`
      : issue.message.replace(/^Invalid input: /, '');
  throw new ConfigError(
    `${where}: ${field}: ${expected}${got === undefined ? ' (missing)' : `, got ${JSON.stringify(got)}`}`,
    { file: where, field },
  );
}

function valueAtPath(value: unknown, keys: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of keys)
    current =
      current !== null && typeof current === 'object'
        ? (current as Record<PropertyKey, unknown>)[key]
        : undefined;
  return current;
}

/** The system prompt of the built-in `general-purpose` agent (hookloop's words; Claude Code's own is not recorded). */
export const GENERAL_PURPOSE_PROMPT = [
  'You are an agent started by the main agent to do one task. Use the tools you have to complete it fully: search, read, run and edit as the task needs.',
  'When you are done, answer with a concise report of what you found or did; the main agent sees only that final answer.',
].join('\n');

/** Claude Code's built-in general-purpose agent: every tool, the session's model. */
export const GENERAL_PURPOSE: AgentDefinition = {
  name: 'general-purpose',
  description:
    'General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.',
  prompt: GENERAL_PURPOSE_PROMPT,
  source: 'built-in',
};

/**
 * An agent's front-matter `hooks` (settings format) as handler entries, checked like a settings
 * file; `Stop` is `SubagentStop` for an agent. @throws ConfigError `<where>: hooks.<Event>…: <problem>`.
 */
export function agentHooks(
  hooks: Record<string, unknown> | undefined,
  where: string,
): ExternalHandlerEntry[] {
  if (hooks === undefined) return [];
  const renamed = Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [event === 'Stop' ? 'SubagentStop' : event, groups]),
  );
  const { settings } = parseSettingsText(JSON.stringify({ hooks: renamed }), where);
  const entries: ExternalHandlerEntry[] = [];
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    if (!isHookEventName(event)) continue;
    groups.forEach((group, groupIndex) =>
      group.hooks.forEach((config, handlerIndex) =>
        entries.push({
          event,
          matcher: group.matcher,
          config,
          source: { file: where },
          groupIndex,
          handlerIndex,
        }),
      ),
    );
  }
  return entries;
}
