import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';

/** One item of the list, Claude Code's fields: `activeForm` is the label shown while it is in progress. */
export const todoSchema = z.strictObject({
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().min(1),
});

/** {@link todoSchema} as a type. */
export type Todo = z.infer<typeof todoSchema>;

const todoWriteInput = z.strictObject({
  todos: z.array(todoSchema).describe('The updated todo list'),
});

/** TodoWrite's `tool_response` (Claude Code shape): the list before the call and the list sent. */
export const todoWriteOutputSchema = z.object({
  oldTodos: z.array(todoSchema),
  newTodos: z.array(todoSchema),
});

/** {@link todoWriteOutputSchema} as a type. */
export type TodoWriteOutput = z.infer<typeof todoWriteOutputSchema>;

/** What the model reads after every successful call, worded as Claude Code words it. */
export const TODO_WRITE_RESULT =
  'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';

// The current list of each session (and of each subagent in it), as the process knows it. A list is
// small and a process runs few sessions, so nothing is evicted; the transcript keeps every version.
const lists = new Map<string, readonly Todo[]>();

function listKey(context: Pick<ToolContext, 'sessionId' | 'agentId'>): string {
  return `${context.sessionId ?? ''}\u0000${context.agentId ?? ''}`;
}

/**
 * `TodoWrite`: replaces the session's todo list with `todos` (the whole list each call).
 *
 * Contract, as Claude Code 2.1.328 behaves (measured):
 * - `tool_response` is `{oldTodos, newTodos}`; the result text is {@link TODO_WRITE_RESULT}.
 * - A list whose items are all `completed` is done: the next call's `oldTodos` is `[]`.
 * - The main session and each subagent keep separate lists.
 * - It changes nothing outside the session, so it needs no permission and runs in plan mode.
 * The list the user sees lives in the transcript (each call's input) and on the timeline page.
 */
export const TodoWrite = defineTool({
  name: 'TodoWrite',
  description: [
    'Create and update a task list for the current session. The list is shown to the user as your working plan.',
    '- Each todo has `content`, `status` ("pending" | "in_progress" | "completed") and `activeForm` (the present-tense label shown while it is in progress).',
    '- Send the whole list on every call; it replaces the previous one.',
    '- Keep exactly one item `in_progress` while you work, and mark it `completed` as soon as it is done.',
  ].join('\n'),
  inputSchema: todoWriteInput,
  outputSchema: todoWriteOutputSchema,
  readOnly: true,
  handler: (input, context): TodoWriteOutput => {
    const key = listKey(context);
    const oldTodos = [...(lists.get(key) ?? [])];
    lists.set(key, input.todos.every((todo) => todo.status === 'completed') ? [] : input.todos);
    return { oldTodos, newTodos: input.todos };
  },
  render: () => TODO_WRITE_RESULT,
});
