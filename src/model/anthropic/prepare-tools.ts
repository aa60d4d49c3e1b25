import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSpec } from '../model-client.js';

/**
 * The registry's tools as Messages API tool definitions (`name`, `description`, `input_schema`).
 * The JSON Schema's `$schema` key is dropped (the API does not need it). With `cache`, the last
 * tool carries a prompt-cache breakpoint, so the tool list is cached with everything before it.
 * Returns undefined for no tools (the API rejects an empty `tools` array on some models).
 */
export function prepareTools(tools: readonly ToolSpec[], cache: boolean): Anthropic.Tool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool, index) => {
    const { $schema: _schema, ...schema } = tool.inputSchema;
    return {
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object', ...schema } as Anthropic.Tool.InputSchema,
      ...(cache && index === tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
    };
  });
}
