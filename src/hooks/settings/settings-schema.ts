import { z } from 'zod';
import { PERMISSION_MODES } from '../../permissions/types.js';
import { sandboxSettingsSchema } from '../../sandbox/sandbox-settings.js';

/**
 * Zod schemas for the parts of Claude Code settings files hookloop reads: `hooks`,
 * `disableAllHooks` and `permissions`. Every other key passes through untouched, so a complete
 * Claude Code `settings.json` loads. Unknown keys inside a handler are dropped (hookloop never
 * reads them), unknown keys of `permissions` are kept.
 *
 * Each schema's error message is the "expected" half of a user-facing message: the loader prints
 * `<file>: <path>: expected <message>, got <value>`.
 */

const text = z.string({ error: 'a string' });
const nonEmptyText = z.string({ error: 'a non-empty string' }).min(1, { error: 'a non-empty string' });
const flag = z.boolean({ error: 'true or false' });
const textList = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
/** Seconds; fractions allowed. */
const timeout = z.number({ error: 'a positive number' }).positive({ error: 'a positive number' });
const onFailure = z.enum(['block', 'ignore'], { error: 'one of "block", "ignore"' });

/** Fields every handler type may carry. `if` is one permission rule (tool events only); `once` is honoured for skills only by Claude Code. */
const common = {
  timeout: timeout.optional(),
  if: text.optional(),
  statusMessage: text.optional(),
  once: flag.optional(),
};

/** `type: "command"`: shell form `command`, or exec form `command` + `args`. */
export const commandHandlerSchema = z.object({
  type: z.literal('command'),
  command: nonEmptyText,
  args: textList.optional(),
  onFailure: onFailure.optional(),
  async: flag.optional(),
  asyncRewake: flag.optional(),
  shell: nonEmptyText.optional(),
  /** hookloop extension: one process per session, one JSON event a line in, one answer a line out (docs/hooks.md, persistent-command.ts). */
  persistent: flag.optional(),
  ...common,
});

/**
 * `type: "http"`: POST of the event JSON to `url`; `$VAR` in `headers` resolved only for
 * `allowedEnvVars`. `retries` (hookloop; 0–5, default 0): extra attempts after a connection error,
 * an HTTP 429 or a 5xx, all within `timeout`.
 */
export const httpHandlerSchema = z.object({
  type: z.literal('http'),
  url: nonEmptyText,
  headers: z.record(z.string(), text, { error: 'an object of strings' }).optional(),
  allowedEnvVars: textList.optional(),
  onFailure: onFailure.optional(),
  retries: z
    .number({ error: 'a whole number from 0 to 5' })
    .int({ error: 'a whole number from 0 to 5' })
    .min(0, { error: 'a whole number from 0 to 5' })
    .max(5, { error: 'a whole number from 0 to 5' })
    .optional(),
  ...common,
});

/** `type: "prompt"`: a one-shot model verdict `{ok, reason}`; `$ARGUMENTS` in `prompt` is the event JSON. */
export const promptHandlerSchema = z.object({
  type: z.literal('prompt'),
  prompt: nonEmptyText,
  model: text.optional(),
  continueOnBlock: flag.optional(),
  onFailure: onFailure.optional(),
  ...common,
});

/** `type: "agent"`: a subagent that answers through a StructuredOutput tool. */
export const agentHandlerSchema = z.object({
  type: z.literal('agent'),
  prompt: nonEmptyText,
  model: text.optional(),
  onFailure: onFailure.optional(),
  ...common,
});

/** `type: "mcp_tool"`: calls `tool` on the connected MCP `server` with `input` (`${tool_input.x}` substituted). */
export const mcpToolHandlerSchema = z.object({
  type: z.literal('mcp_tool'),
  server: nonEmptyText,
  tool: nonEmptyText,
  input: z.record(z.string(), z.unknown(), { error: 'an object' }).optional(),
  onFailure: onFailure.optional(),
  ...common,
});

export const HANDLER_TYPES = ['command', 'http', 'prompt', 'agent', 'mcp_tool'] as const;

/** One hook handler; discriminated on `type`. */
export const handlerConfigSchema = z.discriminatedUnion(
  'type',
  [commandHandlerSchema, httpHandlerSchema, promptHandlerSchema, agentHandlerSchema, mcpToolHandlerSchema],
  { error: `one of ${HANDLER_TYPES.map((type) => JSON.stringify(type)).join(', ')}` },
);

/** `{ matcher?, hooks: [...] }`: the handlers of one event selected by one matcher (see `matcher.ts`). */
export const matcherGroupSchema = z.object(
  {
    matcher: text.optional(),
    hooks: z.array(handlerConfigSchema, { error: 'an array of hook handlers' }),
  },
  { error: 'an object with "hooks"' },
);

/**
 * `hooks`: event name → matcher groups. Event names are checked by the loader, not here, because
 * events hookloop does not fire only earn a warning.
 */
export const hooksSchema = z.record(
  z.string(),
  z.array(matcherGroupSchema, { error: 'an array of matcher groups' }),
  {
    error: 'an object mapping event names to matcher groups',
  },
);

/**
 * Claude Code's permission modes: hookloop's (`PERMISSION_MODES`) plus `auto`, which hookloop
 * does not offer (no classifier); the loader ignores it with a warning instead of rejecting the file.
 */
export const SETTINGS_PERMISSION_MODES = [...PERMISSION_MODES, 'auto'] as const;

/** `permissions`: rule lists are concatenated across files; `defaultMode` follows scalar precedence. */
export const permissionsSchema = z.looseObject(
  {
    allow: textList.optional(),
    ask: textList.optional(),
    deny: textList.optional(),
    defaultMode: z
      .enum(SETTINGS_PERMISSION_MODES, {
        error: `one of ${SETTINGS_PERMISSION_MODES.map((mode) => JSON.stringify(mode)).join(', ')}`,
      })
      .optional(),
    additionalDirectories: textList.optional(),
  },
  { error: 'an object' },
);

/**
 * `hookConcurrency` (hookloop; Claude Code has no such key): event name → how many of that event's
 * settings handlers may run at once (the rest wait; answers are still merged in settings order).
 */
export const hookConcurrencySchema = z.record(
  z.string(),
  z
    .number({ error: 'a whole number of at least 1' })
    .int({ error: 'a whole number of at least 1' })
    .min(1, { error: 'a whole number of at least 1' }),
  {
    error: 'an object mapping event names to limits',
  },
);

/** One settings file. Keys other than these are kept as they are. */
export const settingsFileSchema = z.looseObject(
  {
    hooks: hooksSchema.optional(),
    disableAllHooks: flag.optional(),
    permissions: permissionsSchema.optional(),
    hookConcurrency: hookConcurrencySchema.optional(),
    sandbox: sandboxSettingsSchema.optional(),
  },
  { error: 'a JSON object' },
);

export type CommandHandlerConfig = z.infer<typeof commandHandlerSchema>;
export type HttpHandlerConfig = z.infer<typeof httpHandlerSchema>;
export type PromptHandlerConfig = z.infer<typeof promptHandlerSchema>;
export type AgentHandlerConfig = z.infer<typeof agentHandlerSchema>;
export type McpToolHandlerConfig = z.infer<typeof mcpToolHandlerSchema>;
export type HandlerConfig = z.infer<typeof handlerConfigSchema>;
export type HandlerType = HandlerConfig['type'];
export type MatcherGroup = z.infer<typeof matcherGroupSchema>;
export type PermissionsSettings = z.infer<typeof permissionsSchema>;
export type SettingsFile = z.infer<typeof settingsFileSchema>;
