import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { describeValue, formatPath, valueAt } from '../hooks/settings/load-settings.js';

/**
 * One MCP server's configuration, in Claude Code's shape (`.mcp.json`, `--mcp-config`,
 * `mcpServers` of `~/.claude.json`, a plugin's `.mcp.json`):
 * - stdio: `{ "type"?: "stdio", "command", "args"?, "env"?, "cwd"? }` (no `type` = stdio)
 * - streamable HTTP: `{ "type": "http", "url", "headers"?, "oauth"? }`
 * - legacy SSE: `{ "type": "sse", "url", "headers"?, "oauth"? }`
 * Unknown keys are kept (Claude Code ignores them too); `${VAR}` is expanded by expand-vars.ts.
 */
const stdioSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});
/**
 * OAuth settings of a remote server. Claude Code's keys: `clientId`, `clientSecret` (a client
 * registered beforehand) and `callbackPort` (the loopback port its redirect URI names). hookloop's
 * extensions: `scope` (asked for when the server names none), `clientMetadataUrl` (an HTTPS client
 * ID metadata document, used as client_id where the authorization server takes one), and for a
 * machine-to-machine server `grantType: "client_credentials"` with `clientSecret` or `privateKey`
 * (PEM, signed as a private_key_jwt with `signingAlgorithm`, default ES256), and `crossAppAccess`
 * (see {@link crossAppAccessSchema}).
 */
/**
 * hookloop's extension for cross-app access (Enterprise-Managed Authorization, SEP-990), in
 * `oauth.crossAppAccess`: the identity provider's token endpoint (`idpTokenEndpoint`, or `idpIssuer`
 * for OpenID discovery), hookloop's client there (`idpClientId`, `idpClientSecret`), and the user's
 * ID token from that provider (`idToken`, usually `${VAR}`). The server's own `oauth.clientId` and
 * `oauth.clientSecret` authenticate the JWT-bearer grant.
 */
const crossAppAccessSchema = z.looseObject({
  idpTokenEndpoint: z.string().min(1).optional(),
  idpIssuer: z.string().min(1).optional(),
  idpClientId: z.string().min(1),
  idpClientSecret: z.string().optional(),
  idToken: z.string().min(1),
});

/** A server's `oauth.crossAppAccess`, validated. */
export type CrossAppAccessConfig = z.infer<typeof crossAppAccessSchema>;

const oauthSchema = z.looseObject({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().optional(),
  callbackPort: z.number().int().min(1).max(65535).optional(),
  scope: z.string().optional(),
  clientMetadataUrl: z.string().optional(),
  grantType: z.enum(['authorization_code', 'client_credentials']).optional(),
  privateKey: z.string().optional(),
  signingAlgorithm: z.string().optional(),
  crossAppAccess: crossAppAccessSchema.optional(),
});
const remoteSchema = z.looseObject({
  type: z.enum(['http', 'sse']),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  oauth: oauthSchema.optional(),
});

/**
 * What an in-process server must offer: the official SDK's `McpServer` (or its low-level `Server`)
 * has it. `connect` is given one end of an in-memory transport pair.
 */
export interface InProcessMcpServer {
  connect(transport: Transport): Promise<void>;
}

/**
 * An in-process server, the Agent SDK's `{ type: "sdk", name, instance }` (what its
 * `createSdkMcpServer` returns): no process and no network, the server object is connected over an
 * in-memory transport. Only from the library (`runAgent({ mcpServers })`): a file cannot hold one.
 */
const inProcessSchema = z.looseObject({
  type: z.literal('sdk'),
  name: z.string().optional(),
  instance: z.custom<InProcessMcpServer>(
    (value) =>
      value !== null &&
      typeof value === 'object' &&
      typeof (value as { connect?: unknown }).connect === 'function',
    { message: 'Invalid input: expected object with a connect function' },
  ),
});

/** A remote server's `oauth` settings, validated. */
export type McpOAuthConfig = z.infer<typeof oauthSchema>;

/** A validated stdio server config. */
export type StdioServerConfig = z.infer<typeof stdioSchema>;
/** A validated HTTP or SSE server config. */
export type RemoteServerConfig = z.infer<typeof remoteSchema>;
/** A validated in-process server config (`type: "sdk"`). */
export type InProcessServerConfig = z.infer<typeof inProcessSchema>;
/** Any validated server config. */
export type McpServerConfig = StdioServerConfig | RemoteServerConfig | InProcessServerConfig;

/**
 * Where a server came from, as Claude Code reports it in `mcp_server.source` of tool events:
 * `dynamic` (`--mcp-config`, `runAgent({ mcpServers })`), `project` (`.mcp.json`), `user` and
 * `local` (`~/.claude.json`), `plugin` (a plugin's `.mcp.json`).
 */
export type McpServerSource = 'dynamic' | 'project' | 'user' | 'local' | 'plugin';

/** A server ready to connect: its name as configured, its config (variables expanded), where it came from. */
export interface McpServerEntry {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly source: McpServerSource;
  /** The file (or `--mcp-config` label) it was read from; `runAgent` for library configs. */
  readonly file: string;
}

/** True when the config is an in-process server (`type: "sdk"`). */
export function isInProcessConfig(config: McpServerConfig): config is InProcessServerConfig {
  return config.type === 'sdk';
}

/** True when the config is a remote server (`type: "http"` or `"sse"`). */
export function isRemoteConfig(config: McpServerConfig): config is RemoteServerConfig {
  return config.type === 'http' || config.type === 'sse';
}

/** True when the config is a stdio server (no `type`, or `type: "stdio"`). */
export function isStdioConfig(config: McpServerConfig): config is StdioServerConfig {
  return config.type === undefined || config.type === 'stdio';
}

/**
 * Validates one server's config. `fieldPath` is where it sits in the file (`mcpServers.github`).
 * `inProcess`: a `type: "sdk"` server object is accepted too (library configs; a file cannot hold one).
 * @throws ConfigError, one line: `<file>: mcpServers.github.url: expected a string, got nothing`.
 */
export function parseServerConfig(
  value: unknown,
  file: string,
  fieldPath: string,
  options: { readonly inProcess?: boolean } = {},
): McpServerConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError(
      `${file}: ${fieldPath}: expected an object with "command" (stdio) or "type" and "url" (http, sse), got ${describeValue(value)}`,
      { file, field: fieldPath },
    );
  }
  const type = (value as { type?: unknown }).type;
  if (type === 'sdk' && options.inProcess === true) return parseWith(inProcessSchema, value, file, fieldPath);
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
    throw new ConfigError(
      `${file}: ${fieldPath}.type: expected "stdio", "http" or "sse", got ${describeValue(type)}`,
      { file, field: `${fieldPath}.type` },
    );
  }
  return parseWith(type === 'http' || type === 'sse' ? remoteSchema : stdioSchema, value, file, fieldPath);
}

function parseWith(
  schema: z.ZodType<McpServerConfig>,
  value: object,
  file: string,
  fieldPath: string,
): McpServerConfig {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    checkCrossAppAccess(parsed.data, file, fieldPath);
    return parsed.data;
  }
  const issue = parsed.error.issues[0]!;
  const field = [fieldPath, formatPath(issue.path)].filter(Boolean).join('.');
  const expected =
    issue.code === 'too_small'
      ? 'a non-empty string'
      : issue.message.replace(/^Invalid input: expected (\w+).*$/, 'a $1');
  throw new ConfigError(
    `${file}: ${field}: expected ${expected}, got ${describeValue(valueAt(value, issue.path))}`,
    { file, field },
  );
}

// What the schema cannot say on its own: cross-app access needs an identity provider to ask, and
// the client registered at the server's authorization server that the ID-JAG is bound to.
function checkCrossAppAccess(config: McpServerConfig, file: string, fieldPath: string): void {
  if (!isRemoteConfig(config) || config.oauth?.crossAppAccess === undefined) return;
  const access = config.oauth.crossAppAccess;
  if (access.idpTokenEndpoint === undefined && access.idpIssuer === undefined) {
    const field = `${fieldPath}.oauth.crossAppAccess`;
    throw new ConfigError(`${file}: ${field}: expected "idpTokenEndpoint" or "idpIssuer", got neither`, {
      file,
      field,
    });
  }
  if (config.oauth.clientId === undefined) {
    const field = `${fieldPath}.oauth.clientId`;
    throw new ConfigError(
      `${file}: ${field}: expected a string (cross-app access needs the client registered at the server's authorization server), got nothing`,
      { file, field },
    );
  }
}

/**
 * Reads the `mcpServers` object of a config document (`{ "mcpServers": { name: config } }`).
 * A document without `mcpServers` has no servers.
 * @throws ConfigError naming the file and field for a wrong shape.
 */
export function parseServersDocument(
  document: unknown,
  file: string,
  field = 'mcpServers',
): { name: string; config: McpServerConfig }[] {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(
      `${file}: expected a JSON object with "mcpServers", got ${describeValue(document)}`,
      { file },
    );
  }
  const servers = (document as Record<string, unknown>)[field];
  if (servers === undefined) return [];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new ConfigError(
      `${file}: ${field}: expected an object of servers by name, got ${describeValue(servers)}`,
      { file, field },
    );
  }
  return Object.entries(servers).map(([name, value]) => {
    const fieldPath = `${field}.${formatPath([name])}`.replace('.[', '[');
    if (name.trim() === '')
      throw new ConfigError(`${file}: ${field}: a server name must not be empty`, { file, field });
    return { name, config: parseServerConfig(value, file, fieldPath) };
  });
}
