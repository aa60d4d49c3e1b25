import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpSdkServerConfigWithInstance } from './sdk-types.js';

/** A tool of an in-process MCP server: its name, description, Zod input shape and handler. */
export interface SdkMcpToolDefinition<Schema extends ZodRawShapeCompat = ZodRawShapeCompat> {
  name: string;
  description: string;
  inputSchema: Schema;
  annotations?: ToolAnnotations;
  handler: (args: ShapeOutput<Schema>, extra: unknown) => Promise<CallToolResult>;
}

/**
 * Defines a tool for `createSdkMcpServer`, as the Agent SDK's `tool()`: `inputSchema` is a Zod raw
 * shape (`{ city: z.string() }`, Zod 3 or 4); the handler gets the parsed arguments and answers an
 * MCP `CallToolResult` (`{ content: [{ type: "text", text }] }`, `isError` for a failure). The
 * model sees the tool as `mcp__<server>__<name>`, under every hook and permission rule.
 */
export function tool<Schema extends ZodRawShapeCompat>(
  name: string,
  description: string,
  inputSchema: Schema,
  handler: (args: ShapeOutput<Schema>, extra: unknown) => Promise<CallToolResult>,
  extras: { annotations?: ToolAnnotations } = {},
): SdkMcpToolDefinition<Schema> {
  return {
    name,
    description,
    inputSchema,
    handler,
    ...(extras.annotations ? { annotations: extras.annotations } : {}),
  };
}

/** What `createSdkMcpServer` takes. */
export interface CreateSdkMcpServerOptions {
  name: string;
  version?: string;
  instructions?: string;
  // The definitions' schemas differ per tool; each handler was typed by `tool()` already.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tools?: SdkMcpToolDefinition<any>[];
}

/**
 * An MCP server that runs in this process (the official SDK's McpServer), as the Agent SDK's
 * `createSdkMcpServer`: put it in `options.mcpServers` under its name. hookloop connects it over
 * an in-memory transport when the session starts and closes it when the session ends; a server
 * object serves one session at a time.
 */
export function createSdkMcpServer(options: CreateSdkMcpServerOptions): McpSdkServerConfigWithInstance {
  const server = new McpServer(
    { name: options.name, version: options.version ?? '1.0.0' },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  for (const definition of options.tools ?? [])
    server.registerTool(
      definition.name,
      {
        description: definition.description,
        inputSchema: definition.inputSchema,
        ...(definition.annotations ? { annotations: definition.annotations } : {}),
      },
      (args: unknown, extra: unknown) => definition.handler(args as never, extra),
    );
  return { type: 'sdk', name: options.name, instance: server };
}
