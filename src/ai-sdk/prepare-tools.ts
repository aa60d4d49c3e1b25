import type { LanguageModelV3FunctionTool, LanguageModelV3ToolChoice } from '@ai-sdk/provider';
import type { ToolChoice, ToolSpec } from '../model/model-client.js';

/**
 * The registry's tools as AI SDK function tools (`{ type: "function", name, description,
 * inputSchema }`), the JSON Schema's `$schema` key dropped and `type: "object"` ensured (some
 * providers convert the schema to their own dialect and reject one without a type). Undefined for
 * no tools, so a provider never sees an empty list.
 */
export function prepareTools(tools: readonly ToolSpec[]): LanguageModelV3FunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => {
    const { $schema: _schema, ...schema } = tool.inputSchema;
    return {
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: { type: 'object', ...schema },
    };
  });
}

/** A request's `toolChoice` in AI SDK terms: `any` is `required`, `tool` names the tool as `toolName`. */
export function prepareToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  switch (choice.type) {
    case 'auto':
    case 'none':
      return { type: choice.type };
    case 'any':
      return { type: 'required' };
    case 'tool':
      return { type: 'tool', toolName: choice.name };
  }
}
