import { z } from 'zod';
import { describeError } from '../errors.js';
import { defineTool, ToolFailure, type AnyTool } from '../tools/define-tool.js';
import type { McpClient } from './mcp-client.js';

/** Claude Code's names for the tools that list and read MCP resources. */
export const LIST_RESOURCES_TOOL = 'ListMcpResourcesTool';
export const READ_RESOURCE_TOOL = 'ReadMcpResourceTool';

/**
 * The two resource tools of a session with MCP servers, in Claude Code 2.1.328's names and shapes:
 * - `ListMcpResourcesTool { server? }`: the resources (every page) of one server, or of every
 *   connected server that offers resources, as JSON text — an array of the server's resource
 *   objects, each with `server` added (`[{"name":"A","uri":"probe://a",…,"server":"probe"}]`);
 *   resource templates follow the same way, with `server` added.
 * - `ReadMcpResourceTool { server, uri }`: the server's `resources/read` answer as JSON text
 *   (`{"contents":[{"uri","mimeType","text"}]}`).
 * Both are read-only (a resource is data the server serves; nothing is run), so the policy lets
 * them run where it lets Read run on allowed paths; every hook, matcher and deny rule applies.
 * An unknown server, or one that failed, is a tool failure naming it.
 */
export function resourceTools(clients: () => readonly McpClient[]): AnyTool[] {
  const connected = (name: string): McpClient => {
    const client = clients().find((candidate) => candidate.name === name);
    if (!client)
      throw new ToolFailure(
        `Server "${name}" not found. Available servers: ${
          clients()
            .map((candidate) => candidate.name)
            .join(', ') || 'none'
        }`,
      );
    if (client.state !== 'connected') throw new ToolFailure(`Server "${name}" is not connected`);
    return client;
  };
  const list = defineTool({
    name: LIST_RESOURCES_TOOL,
    description:
      'Lists the resources MCP servers offer (their URIs, names and types). Give `server` to list one server only.',
    inputSchema: z.object({
      server: z.string().optional().describe('the configured name of one MCP server'),
    }),
    readOnly: true,
    handler: async ({ server }, context) => {
      const chosen =
        server !== undefined
          ? [connected(server)]
          : clients().filter((client) => client.state === 'connected');
      const listed: Record<string, unknown>[] = [];
      for (const client of chosen) {
        try {
          for (const resource of await client.listResources(context.signal))
            listed.push({ ...resource, server: client.name });
          for (const template of await client.listResourceTemplates(context.signal))
            listed.push({ ...template, server: client.name });
        } catch (error) {
          if (server !== undefined)
            throw new ToolFailure(`Error listing the resources of "${client.name}": ${describeError(error)}`);
        }
      }
      return JSON.stringify(listed);
    },
  });
  const read = defineTool({
    name: READ_RESOURCE_TOOL,
    description: 'Reads one resource of an MCP server by its URI.',
    inputSchema: z.object({
      server: z.string().describe('the configured name of the MCP server'),
      uri: z.string().describe('the resource URI'),
    }),
    readOnly: true,
    handler: async ({ server, uri }, context) => {
      const client = connected(server);
      try {
        return JSON.stringify(await client.readResource(uri, context.signal));
      } catch (error) {
        throw new ToolFailure(`Error reading resource "${uri}" from "${server}": ${describeError(error)}`);
      }
    },
  });
  return [list, read];
}
