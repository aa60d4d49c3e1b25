import type { ToolRegistry } from '../tools/tool-registry.js';
import { McpClient, type McpClientOptions, type McpProgress } from './mcp-client.js';
import { mcpTool } from './mcp-tools.js';
import { resourceTools } from './resource-tools.js';
import { parseServerConfig, type McpServerConfig, type McpServerEntry } from './server-config.js';

/**
 * MCP servers as `runAgent` takes them: Claude Code's `mcpServers` object (`{ name: config }`,
 * reported with `source: "dynamic"`, like `--mcp-config`), or entries already loaded with their
 * source (what the CLI passes after `loadMcpConfig`).
 */
export type McpServersOption = Readonly<Record<string, McpServerConfig>> | readonly McpServerEntry[];

/**
 * The entries of an `McpServersOption`. Library configs are validated like files.
 * @throws ConfigError naming `runAgent mcpServers.<name>` and the field for a bad config.
 */
export function serverEntries(option: McpServersOption): McpServerEntry[] {
  if (Array.isArray(option)) return [...(option as readonly McpServerEntry[])];
  return Object.entries(option as Readonly<Record<string, McpServerConfig>>).map(([name, config]) => ({
    name,
    config: parseServerConfig(config, 'runAgent', `mcpServers.${name}`, { inProcess: true }),
    source: 'dynamic' as const,
    file: 'runAgent',
  }));
}

/** `McpClientOptions` plus where warnings go (one line each: a server that failed, died, or changed its tools badly). */
export interface McpServerSetOptions extends Omit<McpClientOptions, 'onToolsChanged' | 'onClosed' | 'onLog'> {
  readonly warn: (text: string) => void;
  /** The session's `tool-results` folder, where binary tool output is saved (see `mcpTool`). */
  readonly blobDir?: string | undefined;
  /**
   * Tools left out of the session, as Claude Code leaves out a tool a deny rule covers whole
   * (`mcp__server`, `mcp__server__*`, `mcp__server__tool`): a call to one is "No such tool available".
   */
  readonly hides?: (toolName: string) => boolean;
  /** Servers' log messages and tool calls' progress, one line each (the lifecycle log, stream-json). */
  readonly notice?: (notice: {
    readonly server: string;
    readonly kind: 'log' | 'progress';
    readonly text: string;
    readonly level?: string;
    readonly toolUseId?: string;
  }) => void;
}

/**
 * The MCP servers of one session, their tools registered in the session's registry.
 *
 * Contract:
 * - `start()` connects every server at once and never throws: a server that cannot start is a
 *   warning and offers no tools; the others work.
 * - A server that dies mid-session is a warning; its tools stay and answer a paired error result
 *   (a stdio server is started again once, on the next call).
 * - `notifications/tools/list_changed` replaces the server's tools in the registry; the model sees
 *   the new list from its next request (between turns).
 * - A tool `options.hides` names (a deny rule covers it whole) is not registered, as Claude Code
 *   leaves it out: the model is not offered it and a call to it is "No such tool available".
 * - `close()` ends every server (stdio: the whole process group) and removes their tools.
 */
export class McpServerSet {
  readonly clients: readonly McpClient[];
  private readonly removers = new Map<McpClient, (() => void)[]>();
  private sessionTools: (() => void)[] = [];

  constructor(
    entries: readonly McpServerEntry[],
    private readonly registry: ToolRegistry,
    private readonly options: McpServerSetOptions,
  ) {
    this.clients = entries.map((entry) => {
      const client: McpClient = new McpClient(entry, {
        ...options,
        onToolsChanged: () => this.registerTools(client),
        onClosed: (reason) =>
          options.warn(
            `MCP server "${entry.name}" stopped: ${reason}; its tools answer an error until it is back`,
          ),
        onLog: (message) =>
          options.notice?.({
            server: entry.name,
            kind: 'log',
            level: message.level,
            text: `${message.logger ? `${message.logger}: ` : ''}${typeof message.data === 'string' ? message.data : JSON.stringify(message.data)}`,
          }),
      });
      return client;
    });
  }

  /** Connects every server and registers the tools of those that started. */
  async start(): Promise<void> {
    // A call to a tool of a server that is not up is plain "No such tool available", as in Claude
    // Code; why the server is down was the startup warning.
    await Promise.all(this.clients.map((client) => client.connect()));
    // The resource tools come with any MCP server, as Claude Code offers them (a deny rule on one hides it).
    if (this.clients.length > 0) {
      const tools = resourceTools(() => this.clients).filter(
        (tool) => this.options.hides?.(tool.name) !== true,
      );
      for (const tool of tools) {
        try {
          this.sessionTools.push(this.registry.register(tool));
        } catch {
          this.options.warn(
            `${tool.name} is already a tool of this session; the MCP resource tool of that name is left out`,
          );
        }
      }
    }
    // Registered in config order, not in the order servers answered, so every run offers the same list.
    for (const client of this.clients) {
      if (client.state === 'connected') this.registerTools(client);
      else
        this.options.warn(
          `MCP server "${client.name}" (${client.entry.file}) failed to start: ${client.error ?? 'unknown error'}`,
        );
    }
  }

  /** The client of a server by its configured name. */
  get(name: string): McpClient | undefined {
    return this.clients.find((client) => client.name === name);
  }

  /** Ends every server and removes their tools. */
  async close(): Promise<void> {
    for (const removers of this.removers.values()) for (const remove of removers) remove();
    this.removers.clear();
    for (const remove of this.sessionTools) remove();
    this.sessionTools = [];
    await Promise.all(this.clients.map((client) => client.close()));
  }

  private registerTools(client: McpClient): void {
    for (const remove of this.removers.get(client) ?? []) remove();
    const removers: (() => void)[] = [];
    for (const info of client.tools) {
      const notice = this.options.notice;
      const onProgress = notice
        ? (progress: McpProgress, toolUseId: string | undefined) =>
            notice({
              server: client.name,
              kind: 'progress',
              text: `${info.name}: ${progress.progress}${progress.total !== undefined ? `/${progress.total}` : ''}${progress.message ? ` ${progress.message}` : ''}`,
              ...(toolUseId !== undefined ? { toolUseId } : {}),
            })
        : undefined;
      const tool = mcpTool(client, info, { blobDir: this.options.blobDir, onProgress });
      if (this.options.hides?.(tool.name) === true) continue;
      try {
        removers.push(this.registry.register(tool));
      } catch {
        this.options.warn(
          `MCP server "${client.name}": tool "${info.name}" is offered as ${tool.name}, a name another tool already has; skipped`,
        );
      }
    }
    this.removers.set(client, removers);
  }
}
