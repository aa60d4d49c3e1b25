import { ConfigError } from '../errors.js';
import { loadPlugins } from '../hooks/plugins/load-plugin.js';
import { loadMcpConfig } from '../mcp/load-mcp-config.js';
import { serverAuth } from '../mcp/mcp-auth.js';
import { McpClient } from '../mcp/mcp-client.js';
import { openInBrowser, startOAuthCallback, type OAuthCallback } from '../mcp/oauth-callback.js';
import { oauthStore } from '../mcp/oauth-store.js';
import { isRemoteConfig } from '../mcp/server-config.js';
import type { McpListOptions } from './mcp-options.js';

// A person gets five minutes to finish the authorization in the browser.
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/**
 * Runs `hookloop mcp login <server>` and `mcp logout <server>`. Login: listens on the loopback
 * redirect URI (`oauth.callbackPort`, else the port registered at an earlier login, else a free
 * one), connects as a run would, and when the server asks for OAuth sends the person to the
 * authorization page (`$BROWSER`, the system opener, and the URL printed on stderr); the tokens are
 * kept for later runs. Exit 0 when the server then answers, 1 when not (one line saying why).
 * @throws ConfigError (exit 2) for an unknown server name or a stdio server.
 */
export async function runMcpLogin(
  options: McpListOptions,
  io: {
    readonly stdout: NodeJS.WritableStream;
    readonly stderr: NodeJS.WritableStream;
    readonly cwd: string;
    readonly homeDir: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<number> {
  const env = io.env ?? process.env;
  const plugins = loadPlugins(options.pluginDirs, { homeDir: io.homeDir, createDataDir: false });
  const config = loadMcpConfig({
    projectDir: io.cwd,
    homeDir: io.homeDir,
    env,
    mcpConfigs: options.mcpConfigs,
    strict: options.strictMcpConfig,
    plugins,
    ...(options.settings !== undefined ? { flagSettings: options.settings } : {}),
  });
  const entry = config.servers.find((server) => server.name === options.server);
  if (!entry) {
    const names = config.servers.map((server) => server.name);
    throw new ConfigError(
      `mcp ${options.action}: no MCP server named "${options.server ?? ''}"; configured: ${names.length > 0 ? names.join(', ') : 'none'}`,
      { field: 'server' },
    );
  }
  if (!isRemoteConfig(entry.config))
    throw new ConfigError(
      `mcp ${options.action}: "${entry.name}" is a stdio server; only http and sse servers use OAuth`,
      { field: 'server' },
    );
  const store = oauthStore(env, io.homeDir);
  if (options.action === 'logout') {
    store.remove(entry.name, entry.config.url);
    io.stdout.write(`Forgot the OAuth tokens of "${entry.name}".\n`);
    return 0;
  }
  const registered = (
    store.read(entry.name, entry.config.url).clientInformation as { redirect_uris?: string[] } | undefined
  )?.redirect_uris?.[0];
  const port =
    entry.config.oauth?.callbackPort ?? (registered !== undefined ? Number(new URL(registered).port) : 0);
  let callback: OAuthCallback;
  try {
    callback = await startOAuthCallback(port);
  } catch (error) {
    if (entry.config.oauth?.callbackPort !== undefined)
      throw new ConfigError(
        `${entry.file}: mcpServers.${entry.name}.oauth.callbackPort: port ${port} cannot be used (${(error as Error).message})`,
        { file: entry.file, field: 'oauth.callbackPort' },
      );
    // The port of an earlier registration is taken: register again on a free one.
    store.write(entry.name, entry.config.url, { clientInformation: undefined });
    callback = await startOAuthCallback(0);
  }
  // A registration made for another redirect URI cannot complete this one: register again.
  if (registered !== undefined && registered !== callback.redirectUrl)
    store.write(entry.name, entry.config.url, { clientInformation: undefined });
  const write = (text: string) => void io.stderr.write(text);
  const authorizer = {
    redirectUrl: callback.redirectUrl,
    authorize: async (url: URL, state: string) => {
      openInBrowser(url.href, env, write);
      return callback.waitForCode(state, LOGIN_TIMEOUT_MS);
    },
  };
  const client = new McpClient(entry, {
    projectDir: io.cwd,
    env,
    auth: (server) => serverAuth(server, { store, authorizer }),
  });
  let connected = false;
  try {
    await client.connect();
    connected = client.state === 'connected';
  } finally {
    await client.close();
    await callback.close();
  }
  if (!connected) {
    io.stderr.write(
      `hookloop: mcp login ${entry.name}: ${(client.error ?? 'the server did not answer').replace(/; run `hookloop mcp login [^`]*`$/, '')}\n`,
    );
    return 1;
  }
  io.stdout.write(
    `Authenticated with "${entry.name}" (${client.tools.length} tool${client.tools.length === 1 ? '' : 's'}).\n`,
  );
  return 0;
}
