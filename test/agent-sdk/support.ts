import { expect } from 'vitest';
import type { Options, SDKMessage } from '../../src/agent-sdk/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { tempProject } from '../support/scripted-run.js';

/**
 * Every message of a query, in order; and, for a stream that ended, the pairing the SDK promises:
 * each tool_use the assistant messages asked for has exactly one tool_result, in the same order.
 */
export async function collect(stream: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const seen: SDKMessage[] = [];
  for await (const message of stream) seen.push(message);
  expect(toolResults(seen).map((block) => block.tool_use_id)).toEqual(toolUseIds(seen));
  return seen;
}

/**
 * Options for a test query: a fresh project as `cwd`, no settings files read, the scripted model
 * under `hookloop` (the only line a test adds to an Agent SDK program), and `extra`.
 */
export function scripted(
  turns: readonly ScriptTurn[],
  extra: Options = {},
): { model: ScriptedModel; options: Options } {
  const model = new ScriptedModel(turns);
  return {
    model,
    options: { cwd: tempProject(), settingSources: [], ...extra, hookloop: { model, ...extra.hookloop } },
  };
}

/** The tool_result blocks of the `user` messages, in order. */
export function toolResults(
  messages: readonly SDKMessage[],
): { tool_use_id: string; content: unknown; is_error: boolean }[] {
  return messages.flatMap((message) =>
    message.type === 'user' && Array.isArray(message.message.content)
      ? (
          message.message.content as {
            type: string;
            tool_use_id: string;
            content: unknown;
            is_error: boolean;
          }[]
        ).filter((block) => block.type === 'tool_result')
      : [],
  );
}

/** The tool_use ids the assistant messages asked for, in order. */
export function toolUseIds(messages: readonly SDKMessage[]): string[] {
  return messages.flatMap((message) =>
    message.type === 'assistant'
      ? message.message.content
          .filter((block) => block.type === 'tool_use')
          .map((block) => String(block['id']))
      : [],
  );
}
