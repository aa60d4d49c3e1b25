import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeError } from '../errors.js';
import { ToolFailure, type Tool } from '../tools/define-tool.js';
import { McpCallError, type McpClient, type McpProgress } from './mcp-client.js';
import { mcpToolName } from './mcp-names.js';
import {
  errorText,
  mcpToolOutput,
  outputResultBlocks,
  outputText,
  type McpContentBlock,
  type McpToolOutput,
} from './mcp-result.js';

type McpToolInfo = McpClient['tools'][number];

export { mcpToolName, normalizeMcpName } from './mcp-names.js';
export type { McpContentBlock } from './mcp-result.js';

// Loaded at the first MCP tool (ajv is several MB a run without MCP servers does not need); the
// SDK's CommonJS build, as this must be synchronous.
let validators: AjvJsonSchemaValidator | undefined;
function schemaValidators(): AjvJsonSchemaValidator {
  if (validators === undefined) {
    const ajv = createRequire(import.meta.url)(
      '@modelcontextprotocol/sdk/validation/ajv',
    ) as typeof import('@modelcontextprotocol/sdk/validation/ajv');
    validators = new ajv.AjvJsonSchemaValidator();
  }
  return validators;
}

/**
 * A zod schema that validates with the server's JSON Schema (ajv, through the SDK). MCP tools no
 * longer use it (their servers judge their input, as under Claude Code); kept for embedders who
 * want a local check. A schema ajv cannot compile refuses every input (fail closed).
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
    if (!result.valid)
      context.addIssue({ code: 'custom', message: result.errorMessage ?? 'does not match the schema' });
  });
}

// What a PostToolUse `updatedMCPToolOutput` may be: a content array (MCP or Anthropic blocks) or text.
const outputShape = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

/** Options of {@link mcpTool}. */
export interface McpToolOptions {
  /** The session's `tool-results` folder, where images, audio and blob resources are saved as Claude Code saves them. */
  readonly blobDir?: string | undefined;
  /** Progress the server reports for a call (`notifications/progress`), with the call's tool_use id. */
  readonly onProgress?: ((progress: McpProgress, toolUseId: string | undefined) => void) | undefined;
}

/**
 * The hookloop tool for one server tool. Its output — PostToolUse's `tool_response` and what the
 * model sees — is Claude Code's (see `McpToolOutput`): the JSON text of `structuredContent`, a
 * no-output line, or the content array with images as image blocks and other blocks as text. A
 * result with `isError: true` is a failure whose text blocks, one per line, are the error
 * (PostToolUseFailure `error`); a result that is not a tool result is a failure saying so. A
 * PostToolUse `updatedMCPToolOutput` must be a content array or a string.
 * MCP tools are never read-only for the permission policy: like Claude Code, a call asks unless a
 * rule or mode allows it, whatever the server's `readOnlyHint` says (a server's claim is not proof).
 */
export function mcpTool(
  client: McpClient,
  info: McpToolInfo,
  options: McpToolOptions = {},
): Tool<Record<string, unknown>, McpToolOutput> {
  const modelSchema = { ...(info.inputSchema as Record<string, unknown>) };
  const name = mcpToolName(client.name, info.name);
  const context = { server: client.name, blobDir: options.blobDir };
  return {
    name,
    description: info.description ?? info.title ?? info.name,
    // The server judges its own input, as under Claude Code 2.1.328 (which sends an input that does
    // not match the schema and reports the server's answer): hookloop checks only that it is an object.
    inputSchema: z.record(z.string(), z.unknown()),
    modelSchema,
    mcpServer: { name: client.name, source: client.entry.source },
    kind: 'other',
    readOnly: false,
    outputSchema: outputShape as unknown as z.ZodType<McpToolOutput>,
    async handler(input, toolContext) {
      let result: CallToolResult;
      try {
        const onProgress = options.onProgress;
        result = await client.callTool(
          info.name,
          input,
          toolContext.signal,
          onProgress ? (progress) => onProgress(progress, toolContext.toolUseId) : undefined,
        );
      } catch (error) {
        throw new ToolFailure(callFailure(client.name, error));
      }
      const content = Array.isArray(result.content) ? result.content : [];
      if (result.isError === true)
        throw new ToolFailure(errorText(content) || 'Error: the MCP tool failed without a message');
      return mcpToolOutput(result, context);
    },
    // An empty result reaches hooks as [] and the model as Claude Code's no-output line.
    render: (output) =>
      Array.isArray(output) && output.length === 0
        ? `(${name} completed with no output)`
        : outputText(output),
    renderBlocks: (output) => outputResultBlocks(output, context),
  };
}

/** The text of a call that did not come back as a tool result: Claude Code's words for a malformed one. */
function callFailure(server: string, error: unknown): string {
  if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
    return `MCP server "${server}" returned a malformed result that failed schema validation: Invalid result for tools/call: ${error.message}`;
  }
  if (error instanceof McpCallError) return error.message;
  // A JSON-RPC error (-32602 invalid params, …) is the server's own message, without the SDK's
  // `MCP error <code>: ` prefix, as Claude Code reports it.
  if (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === 'number' &&
    error.name === 'McpError'
  )
    return error.message.replace(/^MCP error -?\d+: /, '');
  return `Error: ${describeError(error)}`;
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
      if (block.type === 'resource')
        return 'text' in block.resource ? block.resource.text : `[resource: ${block.resource.uri}]`;
      if (block.type === 'resource_link') return `[resource: ${block.uri}]`;
      return JSON.stringify(block);
    })
    .join('\n');
}
