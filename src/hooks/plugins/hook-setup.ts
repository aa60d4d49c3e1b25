import path from 'node:path';
import type { CONFIG_CHANGE_SOURCES } from '../event-schemas.js';
import {
  loadSettings,
  settingSourceFiles,
  type LoadedHandler,
  type LoadedSettings,
  type LoadSettingsOptions,
} from '../settings/load-settings.js';
import { loadPlugins, type LoadedPlugin, type PluginHandler } from './load-plugin.js';

/**
 * A session's whole hook configuration: the settings files plus the `--plugin-dir`
 * plugins. What `hookloop -p` registers, what `hookloop hooks list|test` show and run, and what
 * hot reload reads again when a settings file changes.
 */

/** A settings handler or a plugin handler (which carries its plugin's environment). */
export type SetupHandler = LoadedHandler | PluginHandler;

/** `LoadSettingsOptions` plus the plugin directories and whether to create their data directories (default true). */
export interface HookSetupOptions extends LoadSettingsOptions {
  readonly pluginDirs?: readonly string[];
  readonly createPluginData?: boolean;
}

/**
 * - `handlers`: settings handlers in source order, then each plugin's in `--plugin-dir` order; not
 *   deduplicated (the engine runs identical ones once per event); empty when `disableAllHooks` is
 *   set in any settings file (plugins included, as in Claude Code).
 * - `warnings`: the settings' and the plugins', one line each.
 */
export interface HookSetup {
  readonly settings: LoadedSettings;
  readonly plugins: readonly LoadedPlugin[];
  readonly handlers: readonly SetupHandler[];
  readonly warnings: readonly string[];
}

/**
 * Reads the settings and the plugins.
 * @throws ConfigError from either (one line naming the file and field).
 */
export function loadHookSetup(options: HookSetupOptions): HookSetup {
  const settings = loadSettings(options);
  const plugins = loadPlugins(options.pluginDirs ?? [], {
    homeDir: options.homeDir,
    createDataDir: options.createPluginData !== false,
  });
  const handlers = settings.disableAllHooks
    ? []
    : [...settings.handlers, ...plugins.flatMap((plugin) => plugin.handlers)];
  return {
    settings,
    plugins,
    handlers,
    warnings: [...settings.warnings, ...plugins.flatMap((plugin) => plugin.warnings)],
  };
}

/** A settings file a session watches, with the `source` its ConfigChange event reports. */
export interface WatchedSettingsFile {
  readonly file: string;
  readonly source: (typeof CONFIG_CHANGE_SOURCES)[number];
}

/**
 * The settings files whose changes reload hooks, whether or not they exist yet: user, project,
 * local, and the `--settings` file when it is a path (inline JSON cannot change). Relative
 * `flagSettings` resolve against `cwd`, as `loadSettings` does.
 */
export function watchedSettingsFiles(
  options: LoadSettingsOptions,
  cwd = process.cwd(),
): WatchedSettingsFile[] {
  // Only the sources `--setting-sources` selects: a change to a file the run does not read changes nothing.
  const files: WatchedSettingsFile[] = settingSourceFiles(options).map(({ file, scope }) => ({
    file,
    source: `${scope}_settings` as const,
  }));
  const flag = options.flagSettings;
  if (flag !== undefined && !flag.trimStart().startsWith('{'))
    files.push({ file: path.resolve(cwd, flag), source: 'flag_settings' });
  for (const extra of options.extraFiles ?? [])
    files.push({ file: path.resolve(cwd, extra), source: 'flag_settings' });
  return files;
}
