import { z } from 'zod';
import {
  toolResultMessage,
  deepFreeze,
  type ToolCall,
  type ToolResultMessage,
} from '../messages/messages.js';
import type { ToolSpec } from '../model/model-client.js';
import type { AnyTool, ToolContext } from './define-tool.js';
import { inputValidationText } from './input-validation-text.js';

/**
 * The outcome of preparing one tool call (lookup, JSON parse, schema validation, the tool's own
 * checks): `ready` with the normalized, deep-frozen input, or `settled` with the paired error result.
 * A settled call fires no hooks (Claude Code: validation failures fire no PreToolUse/PostToolUse).
 */
export type PreparedCall =
  | {
      readonly kind: 'ready';
      readonly call: ToolCall;
      readonly tool: AnyTool;
      readonly input: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'settled'; readonly call: ToolCall; readonly result: ToolResultMessage };

/** A re-validated input, or the reason it is not acceptable. */
export type InputCheck =
  | { readonly ok: true; readonly input: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: string };

/** `<tool_use_error>…</tool_use_error>`: how Claude Code wraps errors found before a tool runs. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/** One spec per tool object, shared by every registry (every session) that offers the tool. */
const specCache = new WeakMap<AnyTool, ToolSpec>();

function specOf(tool: AnyTool): ToolSpec {
  let spec = specCache.get(tool);
  if (spec === undefined) {
    spec = deepFreeze({
      name: tool.name,
      description: tool.description,
      inputSchema:
        tool.modelSchema ??
        (z.toJSONSchema(tool.inputSchema, { unrepresentable: 'any', io: 'input' }) as Record<
          string,
          unknown
        >),
    });
    specCache.set(tool, spec);
  }
  return spec;
}

/** The tools of a session, by name. Names are unique; registering a duplicate throws a TypeError. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  /** Legacy names a call may still use (`Task` for Agent): looked up, never offered. */
  private readonly aliases = new Map<string, string>();
  /** `specs()` computed once per set of tools: JSON Schema generation costs far more than a tool call. */
  private cachedSpecs: readonly ToolSpec[] | undefined;
  /** Says why a tool is missing (an MCP server that failed to start), added to "No such tool available". */
  missingToolHint: ((name: string) => string | undefined) | undefined;

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool; returns a function that removes it. @throws TypeError on a duplicate name. */
  register(tool: AnyTool): () => void {
    if (this.tools.has(tool.name)) throw new TypeError(`a tool named "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
    this.cachedSpecs = undefined;
    return () => {
      if (this.tools.get(tool.name) !== tool) return;
      this.tools.delete(tool.name);
      this.cachedSpecs = undefined;
    };
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name) ?? this.tools.get(this.aliases.get(name) ?? '');
  }

  /**
   * Lets calls name `tool` by `legacy` too (Claude Code's `Task` for Agent): such a call runs the
   * tool under its own name (hooks and rules see `tool`); `specs()` never lists the legacy name.
   */
  alias(legacy: string, tool: string): void {
    this.aliases.set(legacy, tool);
  }

  list(): readonly AnyTool[] {
    return [...this.tools.values()];
  }

  /**
   * The tools as offered to the model, input schemas converted to JSON Schema (draft 2020-12).
   * Computed once per tool object (sessions that share a tool share its spec) and per set of tools
   * until a tool is registered or removed, so the result is deep-frozen (providers must not mutate
   * requests anyway).
   */
  specs(): readonly ToolSpec[] {
    this.cachedSpecs ??= Object.freeze(this.list().map(specOf));
    return this.cachedSpecs;
  }

  /**
   * Prepares one call: lookup, JSON parse (when the provider sent a string), schema validation,
   * normalization (absolute paths), then the tool's `validateInput`. Never throws.
   */
  async prepare(call: ToolCall, context: ToolContext): Promise<PreparedCall> {
    const settle = (message: string): PreparedCall => ({
      kind: 'settled',
      call,
      result: toolResultMessage(call.id, call.name, toolUseError(message), true),
    });
    const tool = this.get(call.name);
    if (!tool) {
      const hint = this.missingToolHint?.(call.name);
      return settle(`Error: No such tool available: ${call.name}${hint ? ` (${hint})` : ''}`);
    }
    let raw = call.input;
    if (typeof raw === 'string') {
      try {
        raw = raw.trim() === '' ? {} : JSON.parse(raw);
      } catch (error) {
        return settle(
          `InputValidationError: ${tool.name} arguments are not valid JSON: ${(error as Error).message}`,
        );
      }
    }
    const checked = this.check(tool, raw, context);
    if (!checked.ok) return settle(checked.error);
    if (tool.validateInput) {
      let problem: string | undefined;
      try {
        problem = await tool.validateInput(checked.input, context);
      } catch (error) {
        problem = `Error: ${(error as Error).message}`;
      }
      if (problem !== undefined) return settle(problem);
    }
    return { kind: 'ready', call, tool, input: checked.input };
  }

  /**
   * Validates and normalizes an input against the tool's own schema: used by prepare and again for
   * every hook rewrite (`updatedInput`), so a rewrite can never smuggle in what the model could not send.
   * The returned input is a deep-frozen copy.
   */
  check(tool: AnyTool, input: unknown, context: Pick<ToolContext, 'cwd' | 'projectDir'>): InputCheck {
    const parsed = tool.inputSchema.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: inputValidationText(tool.name, parsed.error.issues, input) };
    }
    const normalized = tool.normalizeInput
      ? tool.normalizeInput(structuredClone(parsed.data), context)
      : structuredClone(parsed.data);
    return { ok: true, input: deepFreeze(normalized as Record<string, unknown>) };
  }
}
