import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { findBackgroundShell, stopBackgroundShell } from './background-shells.js';

const taskStopInput = z.strictObject({
  task_id: z.string().optional().describe('The ID of the background task to stop'),
  shell_id: z.string().optional().describe('Deprecated: use task_id instead'),
});

/** TaskStop's `tool_response` (Claude Code's fields for a stopped background command). */
export const taskStopOutputSchema = z.object({
  message: z.string(),
  task_id: z.string(),
  task_type: z.literal('local_bash'),
  command: z.string(),
});

/** {@link taskStopOutputSchema} as a type. */
export type TaskStopOutput = z.infer<typeof taskStopOutputSchema>;

/**
 * `TaskStop` (Claude Code 2.1.328's name; `KillShell` before it): ends a command Bash started with
 * `run_in_background`, by the id its call returned, and its whole process group.
 *
 * Contract:
 * - Input `{task_id}` (or the older `{shell_id}`); checked before any hook runs, as Claude Code
 *   does: an id this session did not start → `No task found with ID: <id>`; one that already ended
 *   → `Task <id> is not running (status: completed|failed|killed)`. Both are `<tool_use_error>`s.
 * - Result: `Successfully stopped task: <id> (<command>)`.
 * - It only stops what this session started, so it needs no permission (and runs in plan mode).
 */
export const TaskStop = defineTool({
  name: 'TaskStop',
  description: [
    '- Stops a background command by its ID (the one a `run_in_background` Bash call returned)',
    '- Takes a task_id parameter; its whole process group is ended',
    '- Returns a success or failure status',
  ].join('\n'),
  inputSchema: taskStopInput,
  outputSchema: taskStopOutputSchema,
  readOnly: true,
  validateInput: async (input, context) => {
    const id = input.task_id ?? input.shell_id;
    if (id === undefined) return 'Missing required parameter: task_id';
    const shell = findBackgroundShell(id, context.sessionId);
    if (shell === undefined) return `No task found with ID: ${id}`;
    if (shell.status !== 'running') return `Task ${id} is not running (status: ${shell.status})`;
    return undefined;
  },
  handler: (input, context): TaskStopOutput => {
    const id = input.task_id ?? input.shell_id ?? '';
    const shell = findBackgroundShell(id, context.sessionId);
    const command = shell?.command ?? '';
    // It may have ended between the check and now: stopped either way.
    if (shell !== undefined) stopBackgroundShell(shell);
    return {
      message: `Successfully stopped task: ${id} (${command})`,
      task_id: id,
      task_type: 'local_bash',
      command,
    };
  },
  render: (output) => output.message,
});
