import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeError } from '../errors.js';
import type { ToolResultBlock } from '../messages/messages.js';
import { ToolFailure, type Tool } from '../tools/define-tool.js';
import type { McpClient } from './mcp-client.js';

type McpToolInfo = McpClient['tools'][number];

/** One block of an MCP tool result (`text`, `image`, `audio`, `resource`, `resource_link`), as the server sent it. */
export type McpContentBlock = CallToolResult['content'][number];

/**
 * Claude Code's name normalisation for MCP servers and tools: every character outside
 * `[a-zA-Z0-9_-]` becomes `_` (`my server` → `my_server`, `plugin:p:s` → `plugin_p_s`).
 */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, both parts normalised. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

// Loaded at the first MCP tool (ajv is several MB a run without MCP servers does not need); the
// SDK's CommonJS build, as this must be synchronous.
let validators: AjvJsonSchemaValidator | undefined;
function schemaValidators(): AjvJsonSchemaValidator {
  if (validators === undefined) {
    const ajv = createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv') as typeof import('@modelcontextprotocol/sdk/validation/ajv');
    validators = new ajv.AjvJsonSchemaValidator();
  }
  return validators;
}

/**
 * A zod schema that validates with the server's JSON Schema (ajv, through the SDK), so the tool
 * registry's one validation path — before PreToolUse, and again for every `updatedInput` — checks
 * MCP input like any other. A schema ajv cannot compile refuses every input (fail closed).
 */
export function jsonSchemaInput(schema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  let validate: ((input: unknown) => { valid: boolean; errorMessage?: string | undefined }) | undefined;
  let compileError: string | undefined;
  try {
    // `$schema` names a draft ajv may not hold (2020-12); the keywords servers use are the same.
    const { $schema: _ignored, ...rest } = schema;
    validate = schemaValidators().getValidator(rest as never);
  } catch (error) {
    compileError = `the server's input schema cannot be used: ${describeError(error)}`;
  }
  return z.record(z.string(), z.unknown()).superRefine((value, context) => {
    if (!validate) return context.addIssue({ code: 'custom', message: compileError ?? 'no schema' });
    const result = validate(value);
    if (!result.valid) context.addIssue({ code: 'custom', message: result.errorMessage ?? 'does not match the schema' });
  });
}

const contentArray = z.array(z.looseObject({ type: z.string() }));

/**
 * The hookloop tool for one server tool. Its `tool_response` (PostToolUse) is the result's content
 * array, as Claude Code passes it; a result with `isError: true` is a failure whose text is the
 * error (PostToolUseFailure `error`); a PostToolUse `updatedMCPToolOutput` must be a content array.
 * MCP tools are never read-only for the permission policy: like Claude Code, a call asks unless a
 * rule or mode allows it, whatever the server's `readOnlyHint` says (a server's claim is not proof).
 */
export function mcpTool(client: McpClient, info: McpToolInfo): Tool<Record<string, unknown>, McpContentBlock[]> {
  const modelSchema = { ...(info.inputSchema as Record<string, unknown>) };
  return {
    name: mcpToolName(client.name, info.name),
    description: info.description ?? info.title ?? info.name,
    inputSchema: jsonSchemaInput(modelSchema),
    modelSchema,
    mcpServer: { name: client.name, source: client.entry.source },
    kind: 'other',
    readOnly: false,
    outputSchema: contentArray as unknown as z.ZodType<McpContentBlock[]>,
    async handler(input, context) {
      let result: CallToolResult;
      try {
        result = await client.callTool(info.name, input, context.signal);
      } catch (error) {
        throw new ToolFailure(`Error: ${describeError(error)}`);
      }
      const content = Array.isArray(result.content) ? result.content : [];
      if (result.isError === true) throw new ToolFailure(contentText(content) || 'Error: the MCP tool failed without a message');
      return content;
    },
    render: (output) => contentText(output),
    // The API refuses empty text blocks: an output with nothing to show goes as its (empty) text.
    renderBlocks: (output) => {
      const blocks = contentBlocks(output).filter((block) => block.type !== 'text' || block.text !== '');
      return blocks.length > 0 ? blocks : undefined;
    },
  };
}

/**
 * A content array as the model gets it (Claude Code passes MCP results as blocks): text as text,
 * images as base64 image blocks, a text resource as its text; other blocks (audio, binary
 * resources, links) as the bracketed description of `contentText`.
 */
export function contentBlocks(content: readonly McpContentBlock[]): ToolResultBlock[] {
  return content.map((block): ToolResultBlock => {
    if (block.type === 'image') return { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } };
    return { type: 'text', text: contentText([block]) };
  });
}

/**
 * The text of a content array, one block per paragraph; non-text blocks are described in brackets
 * (`[image: image/png]`) since a tool result reaches the model as text.
 */
export function contentText(content: readonly McpContentBlock[]): string {
  return content
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'image' || block.type === 'audio') return `[${block.type}: ${block.mimeType}]`;
      if (block.type === 'resource') return 'text' in block.resource ? block.resource.text : `[resource: ${block.resource.uri}]`;
      if (block.type === 'resource_link') return `[resource: ${block.uri}]`;
      return JSON.stringify(block);
    })
    .join('\n');
}
