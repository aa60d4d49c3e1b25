import path from 'node:path';
import type { ToolCall } from '../messages/messages.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { RunContext } from './run-context.js';

/**
 * What the model, PostToolBatch hooks and observers see of a call's output once hooks have had
 * their say: one value, the rewritten one, everywhere downstream.
 */

/** The replacement a PostToolUse reduction chose for `tool`: `updatedMCPToolOutput` for MCP tools (`mcp__…`), else `updatedToolOutput`. */
export function replacementFor(
  tool: AnyTool,
  post: {
    readonly updatedToolOutput?: { readonly value: unknown };
    readonly updatedMCPToolOutput?: { readonly value: unknown };
  },
): { readonly value: unknown } | undefined {
  return tool.name.startsWith('mcp__')
    ? (post.updatedMCPToolOutput ?? post.updatedToolOutput)
    : post.updatedToolOutput;
}

/**
 * The output everyone downstream sees after PostToolUse: the hooks' valid replacement (reported as
 * an `input_rewritten` event), else the handler's own output (an invalid replacement is a warning).
 */
export function replacedOutput(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  post: Parameters<typeof replacementFor>[1],
  output: unknown,
): unknown {
  const replacement = replacementFor(tool, post);
  if (!replacement) return output;
  const replaced = checkReplacedOutput(tool, replacement.value, output);
  if (!replaced.ok) {
    run.emit({
      type: 'warning',
      text: `PostToolUse:${tool.name} updatedToolOutput ignored: ${replaced.error}`,
    });
    return output;
  }
  run.emit({ type: 'input_rewritten', toolName: tool.name, toolUseId: call.id, by: 'PostToolUse' });
  return replaced.value;
}

/**
 * Checks a replacement output against the tool's output shape (when it declares one; a plain
 * string for Bash is refused, as in the reference). A replacement object that leaves out fields
 * that are not text (`isImage`, `noOutputExpected`, `interrupted`: flags and numbers a redaction
 * has no reason to repeat) gets them from the original output, as Claude Code's looser output
 * shapes accept such answers; text fields are never taken from the original, so a redaction that
 * leaves out `stderr` cannot bring the secret back. Returns a copy the hook can no longer change.
 */
export function checkReplacedOutput(
  tool: AnyTool,
  value: unknown,
  original: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  // A string (most tool outputs) is immutable: cloning it would copy every byte for nothing.
  if (!tool.outputSchema)
    return { ok: true, value: typeof value === 'object' && value !== null ? structuredClone(value) : value };
  const parsed = tool.outputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  if (isPlainObject(value) && isPlainObject(original)) {
    const filled: Record<string, unknown> = { ...value };
    for (const [key, field] of Object.entries(original)) {
      if (
        !(key in filled) &&
        field !== undefined &&
        typeof field !== 'string' &&
        (field === null || typeof field !== 'object')
      )
        filled[key] = field;
    }
    const retried = tool.outputSchema.safeParse(filled);
    if (retried.success) return { ok: true, value: retried.data };
  }
  return {
    ok: false,
    error: parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; '),
  };
}

/**
 * The output of a call whose input a hook rewrote (PreToolUse or PermissionRequest `updatedInput`):
 * Claude Code echoes a path as the model spelled it, but a path that came from a hook is shown
 * absolute (`tool_response.filePath`, `file.filePath`, and so the result text), since the model
 * never wrote it. Other outputs are returned as they are.
 */
export function withAbsolutePaths(output: unknown, cwd: string): unknown {
  if (!isPlainObject(output)) return output;
  let changed: Record<string, unknown> | undefined;
  const absolute = (value: unknown) =>
    typeof value === 'string' && value !== '' && !path.isAbsolute(value) ? path.resolve(cwd, value) : value;
  if (typeof output['filePath'] === 'string' && absolute(output['filePath']) !== output['filePath'])
    changed = { ...output, filePath: absolute(output['filePath']) };
  const file = output['file'];
  if (
    isPlainObject(file) &&
    typeof file['filePath'] === 'string' &&
    absolute(file['filePath']) !== file['filePath']
  ) {
    changed = { ...(changed ?? output), file: { ...file, filePath: absolute(file['filePath']) } };
  }
  return changed ?? output;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
