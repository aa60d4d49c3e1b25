import path from 'node:path';
import { watchedSettingsFiles, type HookSetup, type HookSetupOptions } from '../hooks/plugins/hook-setup.js';
import { agentConfigurationPaths } from '../permissions/agent-configuration.js';
import type { SandboxOptions } from '../sandbox/run-sandbox.js';
import type { SandboxSettings } from '../sandbox/sandbox-settings.js';

/**
 * The CLI's `RunOptions.sandbox`: the merged `sandbox` settings, with every configuration source
 * of the session read-only inside the sandbox: what configures an agent in the project's `.claude/`
 * (settings, hooks, agents, commands, plugins, skills …; a loop's `.claude/<name>.local.md` state
 * stays writable), the user, project, local
 * and `--settings` files (whether or not they exist yet), and each `--plugin-dir` plugin.
 */
export function cliSandboxOptions(
  settings: SandboxSettings,
  setup: HookSetup,
  setupOptions: HookSetupOptions,
): SandboxOptions {
  const protectedPaths = [
    ...agentConfigurationPaths(path.join(setupOptions.projectDir, '.claude')),
    ...watchedSettingsFiles(setupOptions).map((watched) => watched.file),
    ...setup.plugins.map((plugin) => plugin.root),
  ];
  return { ...settings, protectedPaths: [...new Set(protectedPaths)] };
}
