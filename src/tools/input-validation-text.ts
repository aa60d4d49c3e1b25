import type { z } from 'zod';

/**
 * The text a model gets for a tool input that fails the tool's schema, worded as Claude Code words
 * it (its `InputValidationError` format), so a model reacts the same under both agents:
 * ```
 * InputValidationError: Bash failed due to the following issue:
 * The required parameter `command` is missing
 * ```
 * Recognised issues, in this order: missing required parameters, unexpected parameters
 * (``An unexpected parameter `x` was provided``), type mismatches (``The parameter `timeout` type
 * is expected as `number` but provided as `string` ``), values outside an enum (``The parameter
 * `status` is invalid: Invalid option: expected one of …``). When none is recognised (a too-short string…), the issues follow as JSON, as Claude Code prints them.
 */
export function inputValidationText(
  toolName: string,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): string {
  const missing: string[] = [];
  const unexpected: string[] = [];
  const mismatched: string[] = [];
  const invalid: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unexpected.push(`An unexpected parameter \`${key}\` was provided`);
    } else if (issue.code === 'invalid_type') {
      const value = valueAt(input, issue.path);
      const where = formatPath(issue.path);
      if (value === undefined) missing.push(`The required parameter \`${where}\` is missing`);
      else
        mismatched.push(
          `The parameter \`${where}\` type is expected as \`${issue.expected === 'int' ? 'number' : String(issue.expected)}\` but provided as \`${typeName(value)}\``,
        );
    } else if (issue.code === 'invalid_value') {
      // A value outside an enum: Claude Code quotes the schema library's own sentence.
      invalid.push(`The parameter \`${formatPath(issue.path)}\` is invalid: ${issue.message}`);
    }
  }
  const lines = [...missing, ...unexpected, ...mismatched, ...invalid];
  if (lines.length === 0) return `InputValidationError: ${JSON.stringify(issues, null, 2)}`;
  return `InputValidationError: ${toolName} failed due to the following issue${lines.length > 1 ? 's' : ''}:\n${lines.join('\n')}`;
}

/** `items[0].count`: keys joined with dots, array indexes in brackets. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path)
    text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
  return text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
