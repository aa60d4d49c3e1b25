import type { SettingSource } from '../hooks/settings/setting-sources.js';
import os from 'node:os';
import path from 'node:path';
import { loadAgents } from '../agents/load-agents.js';
import { HookEngine } from '../hooks/hook-engine.js';
import { loadHookSetup, type HookSetup, type HookSetupOptions } from '../hooks/plugins/hook-setup.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import { claudeJsonPath, loadMcpConfig, type SkippedServer } from '../mcp/load-mcp-config.js';
import { resolveConfigDir } from '../session/paths.js';
import { loadSkills } from '../skills/load-skills.js';
import { loadMemory } from '../memory/load-memory.js';
import { builtinTools } from '../tools/builtin/index.js';
import { configurationFiles } from './configuration-files.js';
import { resolvePermissionMode, type CliPermissionMode } from './permission-mode.js';
import type { RunOptions } from './run-options.js';
import { cliSandboxOptions } from './sandbox-options.js';

/**
 * Where Claude Code's files are looked for and what the command line would add to them. Every
 * field is optional; the defaults read the same files `claude -p` reads in `projectDir`.
 */
export interface ClaudeCodeSetupOptions {
  /** The user's home (`~/.claude.json`, `~/.claude/`); default `os.homedir()`. */
  readonly homeDir?: string;
  /** Environment for `${VAR}` expansion in MCP configs and `CLAUDE_CONFIG_DIR`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The user config folder; default `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
  readonly configDir?: string;
  /** `--settings`: a settings file path or inline JSON, read after the project's files. */
  readonly settings?: string;
  /** `--setting-sources`: which of the user, project and local settings files are read (`--settings` always is); default all three. */
  readonly settingSources?: readonly SettingSource[];
  /** `--plugin-dir` folders, loaded besides the enabled plugins. */
  readonly pluginDirs?: readonly string[];
  /** `--mcp-config` files or inline JSON. */
  readonly mcpConfigs?: readonly string[];
  /** `--strict-mcp-config`: only `mcpConfigs` count. */
  readonly strictMcpConfig?: boolean;
  /** `--agents`: subagent definitions as JSON text. */
  readonly agents?: string;
  /** `--allowedTools` / `--disallowedTools` rules, added after the settings' rules. */
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  /** `--add-dir` folders the file tools may use besides the project. */
  readonly addDirs?: readonly string[];
  /** `--permission-mode`; default the settings' `defaultMode`, else `default`. `auto` runs as dontAsk (see warnings). */
  readonly permissionMode?: CliPermissionMode;
  /** Whether a person is there: project `.mcp.json` servers nobody approved are then left for them to approve. */
  readonly interactive?: boolean;
  /** The engine the settings' and plugins' hooks join; default a new HookEngine with the settings' concurrency. */
  readonly hooks?: HookEngine;
  /** Where warnings go, one line each (unknown fields, skipped servers, bad agent files); default stderr. */
  readonly warn?: (text: string) => void;
}

/** Everything a run needs from Claude Code's files except the model: spread it into RunOptions with one. */
export type ClaudeCodeRunOptions = Omit<RunOptions, 'model'>;

/**
 * What the files say, in parts: `options` for the run (hooks not yet registered), the loaded hook
 * setup and how it was read (to read it again when a file changes), the MCP servers left for a
 * person to approve, and every warning. The CLI keeps the parts; `loadClaudeCodeSetup` is the
 * one call for a library.
 */
export interface ClaudeCodeSetup {
  readonly options: Omit<ClaudeCodeRunOptions, 'hooks'>;
  readonly hookSetup: HookSetup;
  readonly setupOptions: HookSetupOptions;
  readonly skippedServers: readonly SkippedServer[];
  readonly warnings: readonly string[];
}

/**
 * Reads Claude Code's configuration for `projectDir` — settings files, enabled plugins, MCP
 * configs, subagent definitions, skills, permission rules with their sources, the sandbox — as
 * `claude -p` would, plus the command-line additions in `options`.
 * @throws ConfigError for a file or value that cannot be used (one line naming file and field).
 */
export function readClaudeCodeSetup(
  projectDir: string,
  options: ClaudeCodeSetupOptions = {},
): ClaudeCodeSetup {
  const homeDir = options.homeDir ?? os.homedir();
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const setupOptions: HookSetupOptions = {
    projectDir,
    homeDir,
    ...(options.settings !== undefined ? { flagSettings: options.settings } : {}),
    ...(options.settingSources !== undefined ? { settingSources: options.settingSources } : {}),
    pluginDirs: options.pluginDirs ?? [],
    claudeJsonFile: claudeJsonPath(homeDir, env),
  };
  const hookSetup = loadHookSetup(setupOptions);
  const settings = hookSetup.settings;
  const mcpConfigs = options.mcpConfigs ?? [];
  const mcp = loadMcpConfig({
    projectDir,
    homeDir,
    env,
    mcpConfigs,
    strict: options.strictMcpConfig ?? false,
    plugins: hookSetup.plugins,
    ...(options.settings !== undefined ? { flagSettings: options.settings } : {}),
    interactive: options.interactive ?? false,
  });
  warnings.push(...mcp.warnings);
  const configDir = options.configDir ?? resolveConfigDir(undefined, env, homeDir);
  const agents = loadAgents({
    projectDir,
    configDir,
    plugins: hookSetup.plugins,
    ...(options.agents !== undefined ? { agentsJson: options.agents } : {}),
  });
  warnings.push(...agents.warnings);
  const skills = loadSkills({ projectDir, configDir, plugins: hookSetup.plugins });
  warnings.push(...skills.warnings);
  // CLAUDE.md and the rest: the user's (from the config folder), the project's, the local ones.
  const memory = loadMemory({ cwd: projectDir, configDir, homeDir });
  warnings.push(...memory.warnings);
  const allowed = options.allowedTools ?? [];
  const disallowed = options.disallowedTools ?? [];
  const runOptions: Omit<ClaudeCodeRunOptions, 'hooks'> = {
    projectDir,
    tools: builtinTools(),
    agents: agents.agents,
    skills: skills.skills,
    memory: memory.files,
    ...(mcp.servers.length > 0 ? { mcpServers: mcp.servers } : {}),
    permissions: {
      rules: {
        allow: [...settings.permissions.allow, ...allowed],
        ask: [...settings.permissions.ask],
        deny: [...settings.permissions.deny, ...disallowed],
      },
      ruleSources: {
        allow: [...settings.permissionSources.allow, ...allowed.map(() => '--allowedTools')],
        ask: [...settings.permissionSources.ask],
        deny: [...settings.permissionSources.deny, ...disallowed.map(() => '--disallowedTools')],
      },
      mode: resolvePermissionMode(options.permissionMode, settings.defaultMode, (text) =>
        warnings.push(text),
      ),
      autoMode: options.permissionMode === 'auto',
      additionalDirectories: [...settings.additionalDirectories, ...(options.addDirs ?? [])],
    },
    // --mcp-config files name processes the next session starts: the model may not write them either.
    configurationFiles: [
      ...configurationFiles(hookSetup, setupOptions),
      ...mcpConfigs
        .filter((value) => !value.trim().startsWith('{'))
        .map((file) => path.resolve(projectDir, file)),
    ],
    configDir,
    ...(settings.sandbox !== undefined
      ? { sandbox: cliSandboxOptions(settings.sandbox, hookSetup, setupOptions) }
      : {}),
  };
  return { options: runOptions, hookSetup, setupOptions, skippedServers: mcp.skipped, warnings };
}

/**
 * Claude Code's configuration for `projectDir` as run options (see `readClaudeCodeSetup` for what
 * is read): add a model and run it, `runAgent(prompt, { ...(await loadClaudeCodeSetup(dir)), model })`.
 * The settings' and plugins' hooks are registered on `options.hooks` (or a new engine); warnings
 * go to `options.warn`, one line each. Files are read once: a change later is not seen (the CLI
 * watches them itself).
 * @throws ConfigError for a file or value that cannot be used (one line naming file and field).
 */
export async function loadClaudeCodeSetup(
  projectDir: string,
  options: ClaudeCodeSetupOptions = {},
): Promise<ClaudeCodeRunOptions> {
  const setup = readClaudeCodeSetup(path.resolve(projectDir), options);
  const warn = options.warn ?? ((text: string) => process.stderr.write(`hookloop: warning: ${text}\n`));
  const hooks = options.hooks ?? new HookEngine({ concurrency: setup.hookSetup.settings.hookConcurrency });
  const registered = registerSettingsHandlers(hooks, setup.hookSetup.handlers, setup.options.projectDir);
  // A line the settings loader reports twice (the same file read for two purposes) is shown once.
  for (const text of new Set([...setup.warnings, ...setup.hookSetup.warnings, ...registered.warnings]))
    warn(text);
  return Promise.resolve({ ...setup.options, hooks });
}
