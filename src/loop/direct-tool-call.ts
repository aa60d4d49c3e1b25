import { describeError } from '../errors.js';
import { ToolFailure } from '../tools/define-tool.js';
import { callContext, validateContent } from './call-execution.js';
import { checkInput } from './permission-decision/decide.js';
import { toolContext, type RunContext } from './run-context.js';

/**
 * A tool call the session makes on the user's behalf before the prompt is sent (a slash command's
 * `` !`cmd` `` line, an `@file` mention), as Claude Code 2.1.328 makes them (measured: no
 * PreToolUse or PostToolUse hook sees them, the model sees no tool call). The permission policy
 * still decides, whole: deny and ask rules, the workspace boundary, protected configuration, the
 * mode; `allowRules` (a command's `allowed-tools`) approve like allow rules. Only an `allow` runs:
 * an `ask` is refused, since nobody is asked before the prompt exists.
 */

/**
 * - `ran`: the handler's output (`output`) and its model-visible text (`text`, the tool's `render`).
 * - `refused`: the policy did not allow it (`message`, its reason) or the input was not acceptable.
 * - `failed`: the handler failed (`message`, the tool's error text).
 */
export type DirectCallOutcome =
  | { readonly kind: 'ran'; readonly output: unknown; readonly text: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

/** The rules a direct call adds to the policy: a command's `allowed-tools`, and the file they come from. */
export interface DirectCallRules {
  readonly allow: readonly string[];
  readonly source: string;
}

/**
 * Runs the built-in tool `toolName` on `input` under the permission policy (see the file comment).
 * `id` names the call in the run's journal (unique per session). Never throws.
 */
export async function callToolDirectly(
  run: RunContext,
  id: string,
  toolName: string,
  input: Record<string, unknown>,
  rules?: DirectCallRules,
): Promise<DirectCallOutcome> {
  const call = { id, name: toolName, input };
  const prepared = await run.tools.prepare(call, toolContext(run));
  if (prepared.kind === 'settled') return { kind: 'refused', message: prepared.result.content };
  const { tool } = prepared;
  let policy = run.policy;
  try {
    if (rules !== undefined && rules.allow.length > 0)
      policy = run.policy.withAllowRules(rules.allow, rules.source);
  } catch (error) {
    return { kind: 'refused', message: describeError(error) };
  }
  const checked = await checkInput({ ...run, policy }, tool, prepared.input, {
    decision: undefined,
    reason: undefined,
  });
  if (!checked.ok) return { kind: 'refused', message: checked.error };
  if (checked.verdict.behavior !== 'allow') return { kind: 'refused', message: checked.verdict.message };
  const context = callContext(run, call, tool, checked.input, checked.realPaths);
  const invalid = await validateContent(tool, checked.input, context);
  if (invalid !== undefined) return { kind: 'failed', message: invalid };
  try {
    const output = await tool.handler(checked.input, context);
    return { kind: 'ran', output, text: tool.render(output, checked.input) };
  } catch (error) {
    return {
      kind: 'failed',
      message: error instanceof ToolFailure ? error.message : `Error: ${describeError(error)}`,
    };
  }
}
