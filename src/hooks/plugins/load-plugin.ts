import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { isHookEventName, REFERENCE_ONLY_EVENTS } from '../event-names.js';
import {
  describeValue,
  formatPath,
  parseJson,
  parseSettingsText,
  valueAt,
  type LoadedHandler,
} from '../settings/load-settings.js';
import type { HandlerConfig } from '../settings/settings-schema.js';
import { pluginManifestSchema, type PluginManifest } from './plugin-schema.js';
import { makeDirectorySync } from '../../files/make-directory.js';

/**
 * Loads Claude Code plugins given with `--plugin-dir DIR` (Claude Code's plugins
 * reference): `.claude-plugin/plugin.json` names the plugin, `hooks/hooks.json` holds its hooks in
 * the settings format (`{"hooks": {"PreToolUse": [...]}}`), and the manifest's `hooks` may add
 * more files or inline hooks.
 */

/** A plugin handler: a settings handler plus the environment its process gets. */
export interface PluginHandler extends LoadedHandler {
  /** `CLAUDE_PLUGIN_ROOT` (the plugin directory) and `CLAUDE_PLUGIN_DATA` (its persistent data directory). */
  readonly env: Readonly<Record<string, string>>;
}

/** One loaded plugin. */
export interface LoadedPlugin {
  readonly name: string;
  /** The plugin directory, absolute (symlinks resolved). */
  readonly root: string;
  /** `~/.claude/plugins/data/<name>-inline`: Claude Code's data directory of a `--plugin-dir` plugin (`<name>@inline`). */
  readonly dataDir: string;
  /** `.claude-plugin/plugin.json`, when the plugin has one. */
  readonly manifestFile: string | undefined;
  /** The files its hooks came from, in load order. */
  readonly hookFiles: readonly string[];
  readonly handlers: readonly PluginHandler[];
  /** One line each, prefixed with the file they are about. */
  readonly warnings: readonly string[];
}

/**
 * - `homeDir`: for the data directory.
 * - `createDataDir`: create the data directory (default true; inspection commands pass false).
 */
export interface LoadPluginOptions {
  readonly homeDir: string;
  readonly createDataDir?: boolean;
}

const MANIFEST = path.join('.claude-plugin', 'plugin.json');
const DEFAULT_HOOKS = path.join('hooks', 'hooks.json');

/**
 * Loads one plugin directory (relative to the process cwd). Without a manifest the directory name
 * is the plugin name, as Claude Code does. Hook commands get `${CLAUDE_PLUGIN_ROOT}` and
 * `${CLAUDE_PLUGIN_DATA}` replaced by their paths (in `command` and exec-form `args`), so the
 * command that runs, the one `hooks list` shows and the one deduplicated are the same string.
 *
 * @throws ConfigError naming the plugin file and field: a missing directory, a directory with
 *   neither manifest nor hooks file, invalid JSON, a manifest field of the wrong type, a hooks file
 *   that is not in the settings format, a hook file named by the manifest that does not exist.
 */
export function loadPlugin(dir: string, options: LoadPluginOptions): LoadedPlugin {
  const root = realDirectory(dir);
  const manifestFile = path.join(root, MANIFEST);
  const manifest = fs.existsSync(manifestFile) ? readManifest(manifestFile) : undefined;
  const defaultHooks = path.join(root, DEFAULT_HOOKS);
  if (manifest === undefined && !fs.existsSync(defaultHooks)) {
    throw new ConfigError(
      `--plugin-dir ${dir}: not a plugin: found neither ${MANIFEST} nor ${DEFAULT_HOOKS}`,
      { file: root },
    );
  }
  const name = manifest?.name ?? path.basename(root);
  const dataDir = path.join(
    options.homeDir,
    '.claude',
    'plugins',
    'data',
    `${name}-inline`.replace(/[^A-Za-z0-9_-]/g, '-'),
  );
  if (options.createDataDir !== false) makeDirectorySync(dataDir);
  const env = { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir };

  const handlers: PluginHandler[] = [];
  const warnings: string[] = [];
  const hookFiles: string[] = [];
  for (const source of hookSources(root, manifestFile, manifest, warnings)) {
    const parsed = parseSettingsText(source.text, source.label);
    warnings.push(...parsed.warnings);
    hookFiles.push(source.file);
    for (const [event, groups] of Object.entries(parsed.settings.hooks ?? {})) {
      if (!isHookEventName(event)) continue;
      groups.forEach((group, groupIndex) =>
        group.hooks.forEach((config, handlerIndex) =>
          handlers.push({
            event,
            matcher: group.matcher,
            config: substitute(config, env),
            source: { file: source.file, scope: 'plugin', plugin: name },
            groupIndex,
            handlerIndex,
            env,
          }),
        ),
      );
    }
  }
  return {
    name,
    root,
    dataDir,
    manifestFile: manifest === undefined ? undefined : manifestFile,
    hookFiles,
    handlers,
    warnings,
  };
}

/**
 * Loads every `--plugin-dir`, in order.
 * @throws ConfigError as `loadPlugin`, or when two directories hold plugins of the same name.
 */
export function loadPlugins(dirs: readonly string[], options: LoadPluginOptions): LoadedPlugin[] {
  const plugins: LoadedPlugin[] = [];
  for (const dir of dirs) {
    const plugin = loadPlugin(dir, options);
    const twin = plugins.find((other) => other.name === plugin.name);
    if (twin !== undefined) {
      throw new ConfigError(
        `--plugin-dir ${dir}: a plugin named "${plugin.name}" is already loaded from ${twin.root}`,
        { file: plugin.root },
      );
    }
    plugins.push(plugin);
  }
  return plugins;
}

/** `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` replaced in a command handler's `command` and `args`. */
function substitute(
  config: HandlerConfig,
  env: { CLAUDE_PLUGIN_ROOT: string; CLAUDE_PLUGIN_DATA: string },
): HandlerConfig {
  if (config.type !== 'command') return config;
  const expand = (text: string) =>
    text.replace(/\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}/g, (_match, which: string) =>
      which === 'ROOT' ? env.CLAUDE_PLUGIN_ROOT : env.CLAUDE_PLUGIN_DATA,
    );
  return {
    ...config,
    command: expand(config.command),
    ...(config.args !== undefined ? { args: config.args.map(expand) } : {}),
  };
}

interface HookSource {
  readonly file: string;
  /** How messages name it: the file, or `<plugin.json>` for inline hooks (whose JSON path then starts at `hooks`). */
  readonly label: string;
  /** Settings-format JSON text. */
  readonly text: string;
}

/** `hooks/hooks.json` (when present), then what the manifest's `hooks` names, each file once. */
function hookSources(
  root: string,
  manifestFile: string,
  manifest: PluginManifest | undefined,
  warnings: string[],
): HookSource[] {
  const sources: HookSource[] = [];
  const seen = new Set<string>();
  const addFile = (file: string, required: string | undefined) => {
    if (seen.has(file)) {
      warnings.push(
        `${manifestFile}: hooks: ${path.relative(root, file)} is read anyway; listing it again loads it once`,
      );
      return;
    }
    if (!fs.existsSync(file)) {
      if (required !== undefined)
        throw new ConfigError(`${manifestFile}: ${required}: no such file: ${file}`, {
          file: manifestFile,
          field: required,
        });
      return;
    }
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    checkHooksFileShape(text, file);
    sources.push({ file, label: file, text });
  };
  addFile(path.join(root, DEFAULT_HOOKS), undefined);
  const declared = manifest?.hooks;
  const entries = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  entries.forEach((entry, index) => {
    const field = Array.isArray(declared) ? `hooks[${index}]` : 'hooks';
    if (typeof entry === 'string') {
      const file = path.resolve(root, entry);
      if (path.relative(root, file).startsWith('..'))
        warnings.push(`${manifestFile}: ${field}: ${entry} is outside the plugin directory`);
      addFile(file, field);
    } else {
      // Inline hooks: the event map itself, or a hooks file's `{ "hooks": … }`. Re-serialized so the
      // settings parser checks them; its messages then read `<plugin.json>: hooks.PreToolUse[0]…`.
      const events = isHooksFileShape(entry) ? entry['hooks'] : entry;
      sources.push({ file: manifestFile, label: manifestFile, text: JSON.stringify({ hooks: events }) });
    }
  });
  return sources;
}

function isHooksFileShape(value: Record<string, unknown>): boolean {
  const hooks = value['hooks'];
  return hooks !== null && typeof hooks === 'object' && !Array.isArray(hooks);
}

/** A hooks file keeps its events under `hooks`; events at the top level would silently load nothing. */
function checkHooksFileShape(text: string, file: string): void {
  const data = parseJson(text, file);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return; // the settings parser reports it
  const misplaced = Object.keys(data).find(
    (key) => isHookEventName(key) || (REFERENCE_ONLY_EVENTS as readonly string[]).includes(key),
  );
  if (misplaced !== undefined && (data as Record<string, unknown>)['hooks'] === undefined) {
    throw new ConfigError(
      `${file}: ${formatPath([misplaced])}: hook events belong under a top-level "hooks" key: {"hooks": {"${misplaced}": [...]}}`,
      { file, field: misplaced },
    );
  }
}

function readManifest(file: string): PluginManifest {
  const data = parseJson(fs.readFileSync(file, 'utf8'), file);
  const parsed = pluginManifestSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const segments = issue?.path ?? [];
  const field = formatPath(segments);
  const message = `expected ${issue?.message ?? 'a plugin manifest'}, got ${describeValue(valueAt(data, segments))}`;
  throw new ConfigError(field === '' ? `${file}: ${message}` : `${file}: ${field}: ${message}`, {
    file,
    field,
  });
}

function realDirectory(dir: string): string {
  const absolute = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new ConfigError(`--plugin-dir ${dir}: no such directory`, { file: absolute });
  }
  if (!stat.isDirectory()) throw new ConfigError(`--plugin-dir ${dir}: not a directory`, { file: absolute });
  return fs.realpathSync(absolute);
}
