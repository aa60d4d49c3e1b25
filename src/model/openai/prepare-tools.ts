import type OpenAI from 'openai';
import type { ToolSpec } from '../model-client.js';

/**
 * The registry's tools as chat-completions function tools (`{type: "function", function: {name,
 * description, parameters}}`), the JSON Schema's `$schema` key dropped. Undefined for no tools:
 * some servers reject an empty `tools` array.
 */
export function prepareTools(
  tools: readonly ToolSpec[],
): OpenAI.Chat.Completions.ChatCompletionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => {
    const { $schema: _schema, ...parameters } = tool.inputSchema;
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: { type: 'object', ...parameters },
      },
    };
  });
}
