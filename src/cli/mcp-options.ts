/**
 * `hookloop mcp list|login|logout [--mcp-config …] [--strict-mcp-config] [--settings F] [--plugin-dir D]`:
 * `list` (with `--json`) shows every server; `login <server>` authorizes hookloop with a remote
 * server's OAuth; `logout <server>` forgets its tokens.
 */
export interface McpListOptions {
  readonly command: 'mcp';
  readonly action: 'list' | 'login' | 'logout';
  /** The server `login` / `logout` name. */
  readonly server?: string;
  readonly mcpConfigs: readonly string[];
  readonly strictMcpConfig: boolean;
  readonly settings: string | undefined;
  readonly pluginDirs: readonly string[];
  readonly json: boolean;
}
