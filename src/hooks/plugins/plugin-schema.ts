import { z } from 'zod';

/**
 * The part of a Claude Code plugin manifest (`.claude-plugin/plugin.json`) hookloop reads: the
 * plugin's `name` and where its hooks are. Every other key (version, author, commands, agents,
 * mcpServers, …) passes through untouched, so a published manifest loads as it is.
 *
 * Each message is the "expected" half of `<file>: <path>: expected <message>, got <value>`.
 */

/** A plugin name: Claude Code asks for kebab-case and rejects spaces; hookloop only rejects what cannot name a directory. */
export const pluginNameSchema = z
  .string({ error: 'a plugin name (kebab-case, e.g. "my-guard")' })
  .regex(/^[^\s/\\]+$/, { error: 'a plugin name without spaces or slashes (kebab-case, e.g. "my-guard")' });

/** A file of the plugin, written relative to its root (Claude Code's manifests write `./hooks/extra.json`). */
const relativePath = z
  .string({ error: 'a path relative to the plugin root, e.g. "./hooks/extra.json"' })
  .min(1, { error: 'a non-empty path' });

/** Hooks written inline: the event map itself (`{"PreToolUse": [...]}`) or a hooks file's shape (`{"hooks": {...}}`). */
const inlineHooks = z.record(z.string(), z.unknown(), { error: 'an object' });

/**
 * `hooks` in plugin.json: more hook files (a path or a list of paths, each read like
 * `hooks/hooks.json`) or inline hooks. `hooks/hooks.json` itself is always read and need not be named.
 */
export const manifestHooksSchema = z.union(
  [relativePath, z.array(z.union([relativePath, inlineHooks]), { error: 'an array' }), inlineHooks],
  {
    error: 'a path, a list of paths, or an object of hooks',
  },
);

/** `.claude-plugin/plugin.json`. */
export const pluginManifestSchema = z.looseObject(
  {
    name: pluginNameSchema,
    version: z.string({ error: 'a string' }).optional(),
    description: z.string({ error: 'a string' }).optional(),
    hooks: manifestHooksSchema.optional(),
  },
  { error: 'a JSON object' },
);

export type PluginManifest = z.infer<typeof pluginManifestSchema>;
