import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assistantMessage,
  builtinTools,
  HookEngine,
  runAgent,
  startSession,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ToolResultMessage,
} from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// TodoWrite, background Bash and TaskStop as Claude Code 2.1.328 shows them to a model and to hooks
// (measured with the reference runner: schemas, result texts, tool_response shapes).

const TODOS = [
  { content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' },
  { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
];
const DONE = TODOS.map((todo) => ({ ...todo, status: 'completed' }));

function lastResults(messages: readonly Message[]): ToolResultMessage[] {
  return messages.filter((message): message is ToolResultMessage => message.role === 'tool');
}

/** A model that plays `steps`; each step sees the results so far (for ids only known at run time). */
function liveModel(
  steps: readonly ((
    results: readonly ToolResultMessage[],
  ) => ModelResponse['message'] | Promise<ModelResponse['message']>)[],
) {
  let index = 0;
  return {
    name: 'live',
    complete: async (request: ModelRequest): Promise<ModelResponse> => {
      const step = steps[index++];
      const message = step ? await step(lastResults(request.messages)) : assistantMessage('done');
      return {
        message,
        usage: { inputTokens: 1, outputTokens: 1 },
        stopReason: message.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
      };
    },
  };
}

describe('TodoWrite', () => {
  it("answers with Claude Code's text, and a hook set matching Write|Edit|MultiEdit|TodoWrite sees {oldTodos, newTodos}", () => {
    const dir = tempProject();
    const log = path.join(dir, 'post.jsonl');
    writeJson(dir, 'settings.json', {
      hooks: {
        PostToolUse: [
          {
            matcher: 'Write|Edit|MultiEdit|TodoWrite',
            hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }],
          },
        ],
      },
    });
    writeJson(dir, 'turns.json', [
      [toolUse('t1', 'TodoWrite', { todos: TODOS })],
      [toolUse('t2', 'TodoWrite', { todos: DONE })],
      [toolUse('t3', 'TodoWrite', { todos: TODOS })],
      [toolUse('t4', 'TodoWrite', { todos: [{ content: 'x', status: 'bogus' }] })],
      [text('planned')],
    ]);
    const run = runCli(
      [
        '-p',
        'plan',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--output-format',
        'stream-json',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const posts = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool_name: string; tool_response: unknown });
    expect(posts.map((post) => post.tool_name)).toEqual(['TodoWrite', 'TodoWrite', 'TodoWrite']);
    expect(posts[0]!.tool_response).toEqual({ oldTodos: [], newTodos: TODOS });
    expect(posts[1]!.tool_response).toEqual({ oldTodos: TODOS, newTodos: DONE });
    // A list whose items are all completed is finished: the next one starts from nothing.
    expect(posts[2]!.tool_response).toEqual({ oldTodos: [], newTodos: TODOS });
    expect(run.stdout).toContain(
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
    );
    expect(run.stdout).toContain(
      'InputValidationError: TodoWrite failed due to the following issues:\\nThe required parameter `todos[0].activeForm` is missing\\nThe parameter `todos[0].status` is invalid: Invalid option: expected one of \\"pending\\"|\\"in_progress\\"|\\"completed\\"',
    );
  });

  it('is offered to the model with its Claude Code schema', async () => {
    let seen: ModelRequest['tools'] = [];
    await runAgent('go', {
      projectDir: tempProject(),
      tools: builtinTools(),
      model: {
        name: 'peek',
        complete: async (request) => (
          (seen = request.tools),
          {
            message: assistantMessage('ok'),
            usage: { inputTokens: 1, outputTokens: 1 },
            stopReason: 'end_turn',
          }
        ),
      },
    });
    const todo = seen.find((tool) => tool.name === 'TodoWrite');
    const schema = todo?.inputSchema as {
      required: string[];
      properties: { todos: { items: { required: string[]; properties: { status: { enum: string[] } } } } };
    };
    expect(schema.required).toEqual(['todos']);
    expect(schema.properties.todos.items.required).toEqual(['content', 'status', 'activeForm']);
    expect(schema.properties.todos.items.properties.status.enum).toEqual([
      'pending',
      'in_progress',
      'completed',
    ]);
  });
});

describe('background Bash and TaskStop', () => {
  const pidOf = (dir: string) => Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const idOf = (results: readonly ToolResultMessage[]) =>
    /with ID: (\w+)/.exec(results.at(-1)?.content ?? '')?.[1] ?? 'none';
  const untilFile = async (file: string) => {
    while (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') === '')
      await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('returns an id at once, PreToolUse sees run_in_background, and TaskStop ends the whole process group', async () => {
    const dir = tempProject();
    const preInputs: unknown[] = [];
    const hooks = new HookEngine();
    hooks.on('PreToolUse', (input) => void preInputs.push(input.tool_input));
    const command = `sh -c 'echo $$ > ${dir}/pid; exec sleep 60' & wait`;
    let pid = 0;
    const result = await runAgent('go', {
      projectDir: dir,
      tools: builtinTools(),
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
      model: liveModel([
        () => assistantMessage('', [{ id: 't1', name: 'Bash', input: { command, run_in_background: true } }]),
        async (results) => {
          // The grandchild runs before it is stopped: TaskStop must reach past the shell.
          await untilFile(path.join(dir, 'pid'));
          pid = pidOf(dir);
          expect(alive(pid)).toBe(true);
          return assistantMessage('', [{ id: 't2', name: 'TaskStop', input: { task_id: idOf(results) } }]);
        },
        (results) =>
          assistantMessage('', [
            {
              id: 't3',
              name: 'TaskStop',
              input: { task_id: /task: (\w+)/.exec(results.at(-1)?.content ?? '')?.[1] ?? 'none' },
            },
          ]),
        () => assistantMessage('', [{ id: 't4', name: 'TaskStop', input: { shell_id: 'nosuch' } }]),
      ]),
    });
    const results = lastResults(result.messages);
    expect(results[0]!.content).toMatch(
      /^Command running in background with ID: b\w+\. Output is being written to: \S+\.output\./,
    );
    expect(preInputs[0]).toEqual({ command, run_in_background: true });
    expect(results[1]!.content).toBe(`Successfully stopped task: ${idOf([results[0]!])} (${command})`);
    expect(results[2]).toMatchObject({
      isError: true,
      content: `<tool_use_error>Task ${idOf([results[0]!])} is not running (status: killed)</tool_use_error>`,
    });
    expect(results[3]).toMatchObject({
      isError: true,
      content: '<tool_use_error>No task found with ID: nosuch</tool_use_error>',
    });
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(pid)).toBe(false);
  });

  it("ends a background command's processes when the session ends", async () => {
    const dir = tempProject();
    const session = await startSession({
      projectDir: dir,
      tools: builtinTools(),
      permissions: { rules: { allow: ['Bash'] } },
      model: liveModel([
        () =>
          assistantMessage('', [
            {
              id: 't1',
              name: 'Bash',
              input: { command: `sh -c 'echo $$ > ${dir}/pid; exec sleep 60'`, run_in_background: true },
            },
          ]),
      ]),
    });
    await session.send('go');
    await untilFile(path.join(dir, 'pid'));
    const pid = pidOf(dir);
    expect(alive(pid)).toBe(true);
    await session.end();
    // SIGTERM first; a sleep ends on it at once, the SIGKILL after the grace is the backstop.
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(pid)).toBe(false);
  });

  it('is refused by a deny rule like any Bash call, background or not', async () => {
    const dir = tempProject();
    const result = await runAgent('go', {
      projectDir: dir,
      tools: builtinTools(),
      permissions: { rules: { allow: ['Bash'], deny: ['Bash(touch:*)'] } },
      model: liveModel([
        () =>
          assistantMessage('', [
            { id: 't1', name: 'Bash', input: { command: `touch ${dir}/made`, run_in_background: true } },
          ]),
      ]),
    });
    expect(lastResults(result.messages)[0]!.isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'made'))).toBe(false);
  });
});
