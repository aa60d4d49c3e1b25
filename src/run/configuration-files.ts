import fs from 'node:fs';
import path from 'node:path';
import { watchedSettingsFiles, type HookSetup, type HookSetupOptions } from '../hooks/plugins/hook-setup.js';

/**
 * Every file and folder a `hookloop` run takes its hooks and permissions from, for
 * `RunOptions.configurationFiles` (the model may not write them; see permissions/protected-paths.ts):
 * the settings files read and watched (`--settings` ones too), the `--plugin-dir` plugins, and the
 * scripts that command hooks run (a guard in `scripts/guard.sh` that the model could edit would be
 * no guard). Script paths are found by looking at each word of a command hook (and its exec-form
 * `args`), with `$CLAUDE_PROJECT_DIR` and `~` expanded: a word that names an existing file, as
 * written or relative to the project directory, is protected. Best effort: a script named only
 * through a variable or computed at run time is not found (the OS sandbox keeps such files read-only).
 */
export function configurationFiles(setup: HookSetup, setupOptions: HookSetupOptions): string[] {
  const projectDir = setupOptions.projectDir;
  const settingsFiles = setup.settings.files.filter((file) => path.isAbsolute(file));
  const watched = watchedSettingsFiles(setupOptions, projectDir).map((entry) => entry.file);
  const pluginDirs = [
    ...(setupOptions.pluginDirs ?? []).map((dir) => path.resolve(projectDir, dir)),
    ...setup.plugins.map((plugin) => plugin.root),
  ];
  const scripts = setup.handlers.flatMap((handler) => {
    const config = handler.config as { type: string; command?: unknown; args?: unknown };
    if (config.type !== 'command' || typeof config.command !== 'string') return [];
    const args = Array.isArray(config.args)
      ? config.args.filter((arg): arg is string => typeof arg === 'string')
      : [];
    return [config.command, ...args].flatMap((text) => scriptFiles(text, projectDir, setupOptions.homeDir));
  });
  return [...new Set([...settingsFiles, ...watched, ...pluginDirs, ...scripts])];
}

/** The existing files a command's words name (see `configurationFiles`). */
function scriptFiles(command: string, projectDir: string, homeDir: string): string[] {
  const expanded = command.replaceAll(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR\b/g, projectDir);
  const words = expanded
    .replaceAll(/["']/g, '')
    .split(/[\s;&|()<>`]+/)
    .filter((word) => word !== '' && !word.includes('$') && !word.startsWith('-'));
  const files: string[] = [];
  for (const word of words) {
    const file =
      word === '~' || word.startsWith('~/')
        ? path.join(homeDir, word.slice(1))
        : path.resolve(projectDir, word);
    if (isFile(file)) files.push(file);
  }
  return files;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
