import type { Command } from 'commander';
import { loadPlugins } from '../hooks/plugins/load-plugin.js';
import { loadMcpConfig } from '../mcp/load-mcp-config.js';
import { McpClient } from '../mcp/mcp-client.js';
import { mcpToolName } from '../mcp/mcp-tools.js';
import { sessionAuth } from '../mcp/mcp-auth.js';
import { oauthStore } from '../mcp/oauth-store.js';
import type { McpListOptions } from './mcp-options.js';

export type { McpListOptions } from './mcp-options.js';

type McpFlags = {
  mcpConfig?: string[];
  strictMcpConfig: boolean;
  settings?: string;
  pluginDir?: string[];
  json?: boolean;
};

/** Adds `hookloop mcp list|login|logout` to the program; `onParsed` receives the options. */
export function addMcpCommand(program: Command, onParsed: (options: McpListOptions) => void): void {
  const mcp = program
    .command('mcp')
    .description('MCP servers: where they come from, their state and tools; OAuth logins');
  const withSources = (command: Command) =>
    command
      .option('--mcp-config <configs...>', 'MCP servers from JSON files or strings, as for a run')
      .option('--strict-mcp-config', 'only the --mcp-config servers', false)
      .option('--settings <file-or-json>', 'an extra settings file (approval settings)')
      .option(
        '--plugin-dir <dir>',
        'a plugin directory (repeatable)',
        (value: string, previous: string[] = []) => [...previous, value],
      );
  const options = (action: McpListOptions['action'], flags: McpFlags, server?: string): McpListOptions => ({
    command: 'mcp',
    action,
    ...(server !== undefined ? { server } : {}),
    mcpConfigs: flags.mcpConfig ?? [],
    strictMcpConfig: flags.strictMcpConfig,
    settings: flags.settings,
    pluginDirs: flags.pluginDir ?? [],
    json: flags.json === true,
  });
  withSources(
    mcp
      .command('list')
      .description(
        'connect to each configured MCP server (as a headless run would) and show its source, state and tools',
      ),
  )
    .option('--json', 'print JSON', false)
    .action((flags: McpFlags) => onParsed(options('list', flags)));
  withSources(
    mcp
      .command('login')
      .argument('<server>', 'the configured name of an http or sse server')
      .description(
        "authorize hookloop with a remote server's OAuth (opens $BROWSER, or prints the URL) and keep its tokens",
      ),
  ).action((server: string, flags: McpFlags) => onParsed(options('login', flags, server)));
  withSources(
    mcp
      .command('logout')
      .argument('<server>', 'the configured name of an http or sse server')
      .description('forget the OAuth tokens and client registration kept for a server'),
  ).action((server: string, flags: McpFlags) => onParsed(options('logout', flags, server)));
}

/** One server as `mcp list` reports it. `state`: connected, failed, or why it was left off (pending, rejected). */
interface ServerReport {
  readonly name: string;
  readonly source: string;
  readonly file: string;
  readonly state: string;
  readonly detail?: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

/**
 * Runs `hookloop mcp list`: loads the MCP configs as a headless run does, connects to every server
 * (at once), lists its tools under their model-facing names, and closes them. Exit 0 when every
 * server that should start started, 1 when one failed; a bad config throws ConfigError (exit 2).
 */
export async function runMcpCommand(
  options: McpListOptions,
  io: {
    readonly stdout: NodeJS.WritableStream;
    readonly stderr?: NodeJS.WritableStream;
    readonly cwd: string;
    readonly homeDir: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<number> {
  if (options.action !== 'list')
    return (await import('./mcp-login.js')).runMcpLogin(options, {
      ...io,
      stderr: io.stderr ?? process.stderr,
    });
  const plugins = loadPlugins(options.pluginDirs, { homeDir: io.homeDir, createDataDir: false });
  const env = io.env ?? process.env;
  const config = loadMcpConfig({
    projectDir: io.cwd,
    homeDir: io.homeDir,
    env,
    mcpConfigs: options.mcpConfigs,
    strict: options.strictMcpConfig,
    plugins,
    ...(options.settings !== undefined ? { flagSettings: options.settings } : {}),
  });
  const reports: ServerReport[] = await Promise.all(
    config.servers.map(async (entry) => {
      const client = new McpClient(entry, {
        projectDir: io.cwd,
        env,
        auth: sessionAuth(oauthStore(env, io.homeDir), env, () => undefined),
      });
      await client.connect();
      const state = client.state === 'connected' ? 'connected' : 'failed';
      const tools = client.tools.map((tool) => ({
        name: mcpToolName(entry.name, tool.name),
        description: (tool.description ?? '').split('\n')[0]!,
      }));
      await client.close();
      return {
        name: entry.name,
        source: entry.source,
        file: entry.file,
        state,
        ...(client.error ? { detail: client.error } : {}),
        tools,
      };
    }),
  );
  reports.push(
    ...config.skipped.map((skipped) => ({
      name: skipped.name,
      source: skipped.source,
      file: skipped.file,
      state: skipped.state,
      detail: skipped.reason,
      tools: [],
    })),
  );
  if (options.json)
    io.stdout.write(`${JSON.stringify({ servers: reports, warnings: config.warnings }, null, 2)}\n`);
  else {
    if (reports.length === 0)
      io.stdout.write('No MCP servers configured (.mcp.json, ~/.claude.json, --mcp-config, plugins).\n');
    for (const report of reports) {
      io.stdout.write(
        `${report.name} (${report.source}, ${report.file}): ${report.state}${report.detail ? ` - ${report.detail}` : ''}\n`,
      );
      for (const tool of report.tools)
        io.stdout.write(`  ${tool.name}${tool.description ? `  ${tool.description}` : ''}\n`);
    }
    for (const warning of config.warnings) io.stdout.write(`warning: ${warning}\n`);
  }
  return reports.some((report) => report.state === 'failed') ? 1 : 0;
}
