import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { parseJson } from '../hooks/settings/load-settings.js';
import { expandServerConfig } from './expand-vars.js';
import { approvalOf, projectEntryOf, readProjectApproval, type ApprovalState } from './project-approval.js';
import {
  parseServersDocument,
  type McpServerConfig,
  type McpServerEntry,
  type McpServerSource,
} from './server-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where a session's MCP servers come from (Claude Code's sources):
 * - `mcpConfigs`: `--mcp-config` values, each a file path (relative to `projectDir`) or inline JSON;
 * - `strict`: `--strict-mcp-config`: only `mcpConfigs`, every other source ignored;
 * - `plugins`: plugin directories; each one's `.mcp.json` (servers named `plugin:<plugin>:<server>`,
 *   `${CLAUDE_PLUGIN_ROOT}` = the plugin directory);
 * - `interactive`: with a person present, `.mcp.json` servers nobody approved are left `pending` in
 *   `skipped` for the CLI to ask about; headless they connect, as Claude Code's `-p` does
 *   (docs/security.md).
 * - `configDir`: the folder that plays `~/.claude` (`$HOOKLOOP_HOME`, `$CLAUDE_CONFIG_DIR`); when it
 *   is set explicitly, `~/.claude.json` is `<configDir>/.claude.json`, as Claude Code does.
 */
export interface McpConfigSources {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly env?: Env;
  readonly mcpConfigs?: readonly string[];
  readonly strict?: boolean;
  readonly plugins?: readonly { readonly name: string; readonly root: string }[];
  readonly flagSettings?: string;
  readonly interactive?: boolean;
}

/** A configured server that will not be connected, and why (for warnings and `hookloop mcp list`). */
export interface SkippedServer {
  readonly name: string;
  readonly source: McpServerSource;
  readonly file: string;
  readonly state: Exclude<ApprovalState, 'approved'>;
  readonly reason: string;
  /** A pending server's config (variables expanded), so that a person may still approve it. */
  readonly config?: McpServerConfig;
}

/** The servers to connect (later sources override earlier ones of the same name), those left off, and warnings. */
export interface LoadedMcpConfig {
  readonly servers: readonly McpServerEntry[];
  readonly skipped: readonly SkippedServer[];
  readonly warnings: readonly string[];
}

/**
 * Reads every MCP source in Claude Code's precedence (a later one replaces a server of the same name):
 * plugins < user (`~/.claude.json` `mcpServers`) < project (`.mcp.json`) < local
 * (`~/.claude.json` `projects[dir].mcpServers`) < `--mcp-config` (in flag order).
 * @throws ConfigError, one line naming the file and field, for a config that is not valid.
 */
export function loadMcpConfig(sources: McpConfigSources): LoadedMcpConfig {
  const env = sources.env ?? process.env;
  const warnings: string[] = [];
  const skipped: SkippedServer[] = [];
  const byName = new Map<string, McpServerEntry>();
  const add = (
    name: string,
    config: McpServerConfig,
    source: McpServerSource,
    file: string,
    extraEnv: Env = {},
  ) => {
    const { config: expanded, missing } = expandServerConfig(config, { ...env, ...extraEnv });
    if (missing.length > 0)
      warnings.push(
        `${file}: mcpServers.${name}: environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not set (kept as written)`,
      );
    byName.set(name, { name, config: expanded, source, file });
  };

  if (!sources.strict) {
    for (const plugin of sources.plugins ?? []) {
      const file = path.join(plugin.root, '.mcp.json');
      const document = readJsonFile(file);
      if (document === undefined) continue;
      for (const { name, config } of parseServersDocument(document, file)) {
        add(`plugin:${plugin.name}:${name}`, config, 'plugin', file, { CLAUDE_PLUGIN_ROOT: plugin.root });
      }
    }
    const claudeJsonFile = claudeJsonPath(sources.homeDir, env);
    const claudeJson = readJsonFile(claudeJsonFile);
    if (claudeJson !== undefined) {
      for (const { name, config } of parseServersDocument(claudeJson, claudeJsonFile))
        add(name, config, 'user', claudeJsonFile);
    }
    const projectFile = path.join(sources.projectDir, '.mcp.json');
    const projectDocument = readJsonFile(projectFile);
    if (projectDocument !== undefined) {
      const approval = readProjectApproval({
        projectDir: sources.projectDir,
        homeDir: sources.homeDir,
        claudeJson,
        ...(sources.flagSettings !== undefined ? { flagSettings: sources.flagSettings } : {}),
      });
      for (const { name, config } of parseServersDocument(projectDocument, projectFile)) {
        const state = approvalOf(approval, name);
        if (state === 'rejected') {
          skipped.push({
            name,
            source: 'project',
            file: projectFile,
            state,
            reason: 'listed in disabledMcpjsonServers',
          });
          continue;
        }
        if (state === 'pending' && sources.interactive === true) {
          const reason =
            'not approved: add it to enabledMcpjsonServers (or set enableAllProjectMcpServers) in .claude/settings.local.json';
          skipped.push({
            name,
            source: 'project',
            file: projectFile,
            state,
            reason,
            config: expandServerConfig(config, env).config,
          });
          continue;
        }
        add(name, config, 'project', projectFile);
      }
    }
    const local = projectEntryOf(claudeJson, sources.projectDir);
    if (local !== undefined) {
      for (const { name, config } of parseServersDocument(
        local,
        `${claudeJsonFile}: projects[${JSON.stringify(sources.projectDir)}]`,
      ))
        add(name, config, 'local', claudeJsonFile);
    }
  }
  (sources.mcpConfigs ?? []).forEach((value, index) => {
    const { document, file } = readMcpConfigFlag(value, index, sources.projectDir);
    for (const { name, config } of parseServersDocument(document, file)) add(name, config, 'dynamic', file);
  });
  return { servers: [...byName.values()], skipped, warnings };
}

/** `~/.claude.json`, or `<dir>/.claude.json` when `$HOOKLOOP_HOME` / `$CLAUDE_CONFIG_DIR` names the config folder. */
export function claudeJsonPath(homeDir: string, env: Env): string {
  const configDir = env['HOOKLOOP_HOME'] || env['CLAUDE_CONFIG_DIR'];
  return configDir ? path.join(path.resolve(configDir), '.claude.json') : path.join(homeDir, '.claude.json');
}

/**
 * One `--mcp-config` value: inline JSON when it starts with `{`, else a file (relative to `cwd`).
 * @throws ConfigError for a missing file or invalid JSON.
 */
function readMcpConfigFlag(value: string, index: number, cwd: string): { document: unknown; file: string } {
  if (value.trimStart().startsWith('{'))
    return { document: parseJson(value, `--mcp-config[${index}]`), file: `--mcp-config[${index}]` };
  const file = path.resolve(cwd, value);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--mcp-config: cannot read ${value}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { file: value, field: '--mcp-config', cause: error },
    );
  }
  return { document: parseJson(text, value), file: value };
}

/** A JSON file, or undefined when it does not exist. @throws ConfigError when it exists but is not JSON. */
function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseJson(text, file);
}
