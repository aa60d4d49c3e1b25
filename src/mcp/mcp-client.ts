import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors.js';
import { linkedAbort } from './linked-abort.js';
import type { McpServerAuth } from './oauth-fetch.js';
import { listAllPages } from './list-pages.js';
import { isInProcessConfig, isStdioConfig, type McpServerEntry } from './server-config.js';

/**
 * The SDK's runtime parts, imported at the first connection: the SDK and its schemas are ~25 ms
 * and several MB of start-up that a run without MCP servers does not need.
 */
type McpSdk = Awaited<ReturnType<typeof importMcpSdk>>;
let sdk: Promise<McpSdk> | undefined;
async function importMcpSdk() {
  const [client, sse, http, types, stdio, auth] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./stdio-process-transport.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ElicitRequestSchema: types.ElicitRequestSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
    UnauthorizedError: auth.UnauthorizedError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    StdioProcessTransport: stdio.StdioProcessTransport,
  };
}

/** A server tool as listed by `tools/list` (name, description, inputSchema, annotations). */
export type McpToolInfoList = readonly McpToolInfo[];

/** An elicitation a server sent (`elicitation/create`), as the Elicitation hook reports it. */
export interface ElicitationRequest {
  readonly serverName: string;
  readonly message: string;
  /** `form` (a requested schema) or `url`. */
  readonly mode: 'form' | 'url';
  readonly requestedSchema?: Record<string, unknown>;
  readonly url?: string;
}

/** A `notifications/message` a server sent (after `logging/setLevel`): its level, logger and data. */
export interface McpLogMessage {
  readonly serverName: string;
  readonly level: string;
  readonly logger?: string;
  readonly data: unknown;
}

/** A `notifications/progress` for one tool call: `progress` of `total` (when known), and the server's message. */
export interface McpProgress {
  readonly serverName: string;
  readonly tool: string;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The answer the server gets: `accept` with `content`, `decline` or `cancel`. */
export interface ElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Record<string, unknown>;
}

/**
 * - `projectDir`: the directory stdio servers start in (unless their config has `cwd`; a relative `cwd` is under it),
 *   and the one root offered to servers that ask (`roots/list`: `file://<projectDir>`, as Claude Code answers).
 * - `env`: the environment stdio servers inherit (default `process.env`); their config's `env` is added on top.
 * - `onElicitation`: answers a server's `elicitation/create` (default: `cancel`, as Claude Code's `-p` does unanswered).
 * - `onToolsChanged`: called with the new list after `notifications/tools/list_changed`.
 * - `onClosed`: called when the connection ends without `close()` (a crash, the server quitting).
 * - `onLog`: the server's log messages (`logging/setLevel` is sent at connect when the server offers logging).
 * - `logLevel`: the level asked for (default `info`).
 * - `auth`: OAuth for an HTTP/SSE server (see mcp-auth.ts); without it a server that answers 401
 *   fails to start with the server's own error.
 */
export interface McpClientOptions {
  readonly projectDir: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly onElicitation?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  readonly onToolsChanged?: (tools: McpToolInfoList) => void;
  readonly onClosed?: (reason: string) => void;
  readonly onLog?: (message: McpLogMessage) => void;
  readonly logLevel?: 'debug' | 'info' | 'notice' | 'warning' | 'error';
  readonly auth?: (entry: McpServerEntry) => Promise<McpServerAuth | undefined>;
}

/** `connecting`, `connected`, `failed` (could not start; `error` says why), `closed` (died or closed). */
export type McpClientState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
// Claude Code lets a tool call run for hours unless MCP_TOOL_TIMEOUT says otherwise; the run's
// AbortSignal is what ends a hung call.
const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000;

/** A call that failed at the protocol level, its message worded as Claude Code words it (the model sees it as it is). */
export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

/**
 * One connection to one MCP server through the official SDK client: stdio (own process group,
 * see StdioProcessTransport), streamable HTTP or legacy SSE. For embedders who manage connections
 * themselves; `runAgent({ mcpServers })` makes one per server.
 *
 * Contract:
 * - `connect()` never throws: a server that cannot start ends `failed`, with `error` set.
 * - A stdio server that died is started again on the next `callTool`, each time it dies (as Claude
 *   Code does); when it does not come back, its calls answer an error.
 * - `close()` ends the server (stdio: its whole process group) and is safe to call twice.
 */
export class McpClient {
  state: McpClientState = 'idle';
  /** Why the server failed or closed, one line. */
  error: string | undefined;
  /**
   * The tools of the last `tools/list`, every page (empty until connected). A tool whose
   * `execution.taskSupport` is `required` is left out: it can only be run as a task, which
   * hookloop does not do, so offering it would only make every call fail.
   */
  tools: McpToolInfoList = [];
  /** The server's `instructions` from `initialize`, when it sent any. */
  instructions: string | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private restarts = 0;
  private closing = false;
  private refreshing: Promise<void> | undefined;
  private refreshGeneration = 0;
  private auth: McpServerAuth | undefined;

  constructor(
    readonly entry: McpServerEntry,
    private readonly options: McpClientOptions,
  ) {}

  /** The server's configured name. */
  get name(): string {
    return this.entry.name;
  }

  /** Connects and lists the tools. Never throws; see `state` and `error`. */
  async connect(): Promise<void> {
    this.state = 'connecting';
    this.error = undefined;
    const env = this.options.env ?? process.env;
    const startup = Number(env['MCP_TIMEOUT']) > 0 ? Number(env['MCP_TIMEOUT']) : DEFAULT_STARTUP_TIMEOUT_MS;
    let mcp: McpSdk;
    try {
      mcp = await (sdk ??= importMcpSdk());
    } catch (error) {
      sdk = undefined;
      return this.fail(describeError(error));
    }
    const {
      Client,
      ElicitRequestSchema,
      ListRootsRequestSchema,
      LoggingMessageNotificationSchema,
      ToolListChangedNotificationSchema,
      StdioProcessTransport,
    } = mcp;
    const client = new Client(
      { name: 'hookloop', version: '0.1.0' },
      {
        // Roots as Claude Code offers them: the project directory (servers such as
        // @modelcontextprotocol/server-filesystem take it as their allowed directory).
        // applyDefaults: an accepted form with fields left out gets the schema's defaults for them.
        capabilities: { elicitation: { form: { applyDefaults: true } }, roots: { listChanged: true } },
      },
    );
    // A list change is fetched at once; a call during which it arrived waits for the new list
    // before it returns, so the model's next request offers it (deterministic "between turns").
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refreshing = this.refreshTools(client);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      this.options.onLog?.({
        serverName: this.name,
        level,
        ...(logger !== undefined ? { logger } : {}),
        data,
      });
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: `file://${path.resolve(this.options.projectDir)}` }],
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params as {
        message: string;
        mode?: 'form' | 'url';
        requestedSchema?: Record<string, unknown>;
        url?: string;
      };
      const elicitation: ElicitationRequest = {
        serverName: this.name,
        message: params.message,
        mode: params.mode ?? 'form',
        ...(params.requestedSchema ? { requestedSchema: params.requestedSchema } : {}),
        ...(params.url !== undefined ? { url: params.url } : {}),
      };
      const answer = this.options.onElicitation
        ? await this.options.onElicitation(elicitation, extra.signal)
        : { action: 'cancel' as const };
      // An accepted form gets the schema's defaults for the fields left out (SEP-1034).
      const content =
        answer.action === 'accept' && elicitation.mode === 'form'
          ? withDefaults(elicitation.requestedSchema, answer.content ?? {})
          : answer.content;
      return {
        action: answer.action,
        ...(content ? { content: content as Record<string, string | number | boolean | string[]> } : {}),
      };
    });
    let transport: Transport;
    try {
      const local = isStdioConfig(this.entry.config) || isInProcessConfig(this.entry.config);
      this.auth = local ? undefined : await this.options.auth?.(this.entry);
      transport = await this.createTransport(mcp);
    } catch (error) {
      return this.fail(describeError(error));
    }
    client.onclose = () => {
      if (this.client !== client) return;
      const wasConnected = this.state === 'connected';
      if (this.state !== 'failed') this.state = 'closed';
      if (!this.closing && wasConnected) {
        const stderr =
          transport instanceof StdioProcessTransport && transport.stderr
            ? `: ${lastLine(transport.stderr)}`
            : '';
        this.error = `the server connection closed${stderr}`;
        this.options.onClosed?.(this.error);
      }
    };
    this.client = client;
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: startup });
      this.instructions = client.getInstructions() || undefined;
      this.tools = await this.listTools(client, startup);
      if (client.getServerCapabilities()?.logging)
        await client
          .setLoggingLevel(this.options.logLevel ?? 'info', { timeout: startup })
          .catch(() => undefined);
      this.state = 'connected';
    } catch (error) {
      const stderr =
        transport instanceof StdioProcessTransport && transport.stderr
          ? ` (stderr: ${lastLine(transport.stderr)})`
          : '';
      await transport.close().catch(() => undefined);
      const login = this.auth?.needsLogin;
      if (login !== undefined || error instanceof mcp.UnauthorizedError)
        return this.fail(
          `needs authentication: ${login ?? describeError(error)}; run \`hookloop mcp login ${this.name}\``,
        );
      this.fail(`${describeError(error)}${stderr}`);
    }
  }

  /**
   * Calls a tool. Starts a dead stdio server again once first.
   * @throws Error when the server is not connected (and could not be restarted) or the call failed
   * at the protocol level; a tool's own failure is a result with `isError: true`, not a throw.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (progress: McpProgress) => void,
  ): Promise<CallToolResult> {
    // Like Claude Code, a server that died is started again on the next call, every time it dies;
    // one that then fails to come back is not tried again.
    if (
      this.state !== 'connected' &&
      !this.closing &&
      isStdioConfig(this.entry.config) &&
      this.restarts < 1 &&
      (this.state === 'closed' || this.state === 'failed')
    ) {
      this.restarts++;
      await this.connect();
      // The restarted server may offer other tools than before.
      if ((this.state as McpClientState) === 'connected') {
        this.restarts = 0;
        this.options.onToolsChanged?.(this.tools);
      }
    }
    if (this.state !== 'connected' || !this.client)
      throw new Error(`MCP server "${this.name}" is not connected${this.error ? `: ${this.error}` : ''}`);
    const env = this.options.env ?? process.env;
    const timeout =
      Number(env['MCP_TOOL_TIMEOUT']) > 0 ? Number(env['MCP_TOOL_TIMEOUT']) : DEFAULT_TOOL_TIMEOUT_MS;
    let result: unknown;
    // The SDK adds an abort listener to the signal it is given and never removes it: the run-wide
    // signal would collect one per call. Each call gets its own signal, unlinked when it settles.
    const abort = linkedAbort(signal);
    // A progressToken is sent only with an onprogress handler; every call asks for progress.
    const onprogress = (update: { progress: number; total?: number; message?: string }) =>
      onProgress?.({
        serverName: this.name,
        tool,
        progress: update.progress,
        ...(update.total !== undefined ? { total: update.total } : {}),
        ...(update.message !== undefined ? { message: update.message } : {}),
      });
    try {
      result = await this.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout,
        signal: abort.signal,
        onprogress,
      });
    } catch (error) {
      // Claude Code's words for the two protocol failures a call meets most (the SDK is loaded: the client connected).
      const { McpError, ErrorCode } = await (sdk ??= importMcpSdk());
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
        throw new McpCallError(`MCP server "${this.name}" tool "${tool}" timed out after ${timeout / 1000}s`);
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
        throw new McpCallError('Connection closed');
      throw error;
    } finally {
      abort.release();
    }
    if (this.refreshing) await this.refreshing;
    return result as CallToolResult;
  }

  /** Every resource the server lists (all pages); empty when it offers no resources. @throws on a protocol failure. */
  async listResources(signal?: AbortSignal): Promise<Resource[]> {
    const client = this.connected();
    if (!client.getServerCapabilities()?.resources) return [];
    return listAllPages(async (cursor) => {
      const page = await client.listResources(
        cursor ? { cursor } : undefined,
        signal ? { signal } : undefined,
      );
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** Every resource template the server lists (all pages). @throws on a protocol failure. */
  async listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    const client = this.connected();
    if (!client.getServerCapabilities()?.resources) return [];
    return listAllPages(async (cursor) => {
      const page = await client.listResourceTemplates(
        cursor ? { cursor } : undefined,
        signal ? { signal } : undefined,
      );
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  /** Reads one resource by URI. @throws on a protocol failure (an unknown URI included). */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.connected().readResource({ uri }, signal ? { signal } : undefined);
  }

  /** Every prompt the server lists (all pages); empty when it offers no prompts. @throws on a protocol failure. */
  async listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    const client = this.connected();
    if (!client.getServerCapabilities()?.prompts) return [];
    return listAllPages(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, signal ? { signal } : undefined);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** Gets one prompt with its arguments (strings). @throws on a protocol failure. */
  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.connected().getPrompt({ name, arguments: { ...args } }, signal ? { signal } : undefined);
  }

  private connected(): Client {
    if (this.state !== 'connected' || !this.client)
      throw new Error(`MCP server "${this.name}" is not connected${this.error ? `: ${this.error}` : ''}`);
    return this.client;
  }

  private async listTools(client: Client, timeout?: number): Promise<McpToolInfo[]> {
    const tools = await listAllPages(async (cursor) => {
      const page = await client.listTools(
        cursor ? { cursor } : undefined,
        timeout !== undefined ? { timeout } : undefined,
      );
      return { items: page.tools, nextCursor: page.nextCursor };
    });
    return tools.filter(
      (tool) => (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport !== 'required',
    );
  }

  /** Fetches the tool list again after `notifications/tools/list_changed`; a failure keeps the old list. */
  private refreshTools(client: Client): Promise<void> {
    const generation = ++this.refreshGeneration;
    return (async () => {
      try {
        this.tools = await this.listTools(client);
        this.options.onToolsChanged?.(this.tools);
      } catch {
        // The old list stays; a dead connection is reported by onclose.
      } finally {
        // A newer notification may have started another refresh: only the latest clears the slot.
        if (generation === this.refreshGeneration) this.refreshing = undefined;
      }
    })();
  }

  /** Ends the connection and the server. Safe to call more than once. */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    const transport = this.transport;
    this.state = 'closed';
    // An HTTP session is ended with its DELETE, so the server can let go of it at once.
    const http = transport as { terminateSession?: () => Promise<void> } | undefined;
    if (client && typeof http?.terminateSession === 'function')
      await http.terminateSession().catch(() => undefined);
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  private fail(reason: string): void {
    this.state = 'failed';
    this.error = reason;
  }

  private async createTransport({
    StdioProcessTransport,
    SSEClientTransport,
    StreamableHTTPClientTransport,
  }: McpSdk): Promise<Transport> {
    const config = this.entry.config;
    if (isInProcessConfig(config)) {
      // The official SDK's linked pair: what one end sends, the other receives, in this process.
      const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      await config.instance.connect(serverEnd);
      return clientEnd;
    }
    if (isStdioConfig(config)) {
      const base = { ...(this.options.env ?? process.env) };
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
      // Claude Code starts stdio servers with the project directory in CLAUDE_PROJECT_DIR, as it does hooks.
      env['CLAUDE_PROJECT_DIR'] = path.resolve(this.options.projectDir);
      Object.assign(env, config.env ?? {});
      const cwd =
        config.cwd !== undefined
          ? path.resolve(this.options.projectDir, config.cwd)
          : this.options.projectDir;
      return new StdioProcessTransport({ command: config.command, args: config.args ?? [], env, cwd });
    }
    const url = new URL(config.url);
    const requestInit = config.headers ? { headers: { ...config.headers } } : undefined;
    const options = {
      ...(requestInit ? { requestInit } : {}),
      ...(this.auth ? { fetch: this.auth.fetch } : {}),
    };
    // The SDK sends `requestInit.headers` with the event stream's GET as well as with each POST.
    if (config.type === 'sse') return new SSEClientTransport(url, options);
    return new StreamableHTTPClientTransport(url, options);
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return (lines.at(-1) ?? '').slice(0, 300);
}

/** `content` with each top-level property of `schema` that it lacks and that has a `default` filled in. */
function withDefaults(
  schema: Record<string, unknown> | undefined,
  content: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  const properties = schema?.['properties'];
  if (properties === null || typeof properties !== 'object') return filled;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (name in filled || property === null || typeof property !== 'object') continue;
    if ('default' in property) filled[name] = (property as { default: unknown }).default;
  }
  return filled;
}
