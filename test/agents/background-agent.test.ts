import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HookEngine,
  runAgent,
  type AgentDefinition,
  type HookInput,
  type SystemMessage,
  type ToolResultMessage,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { z } from 'zod';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// The Agent tool's run_in_background: the call returns at once, the subagent runs under every hook
// and rule, and its answer reaches the model later as a <task-notification> (Claude Code 2.1.328's
// shape, measured), waking a model that had already stopped.

// Matched by its system prompt, which only the subagent's requests carry.
const HELPER: AgentDefinition = {
  name: 'helper',
  description: 'Helps',
  prompt: 'HELPER-SYSTEM-PROMPT',
  source: 'cli',
};

describe('Agent run_in_background', () => {
  it('returns an agent id at once; the answer arrives later as a task notification and wakes the stopped model', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    // The subagent's call waits until the main model has answered without it: the notification must wake it.
    let mainStopped: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (mainStopped = resolve));
    const probe = defineTool({
      name: 'Probe',
      description: 'probe',
      inputSchema: z.strictObject({ value: z.string() }),
      readOnly: true,
      handler: async ({ value }) => (await stopped, ran.push(value), 'probed'),
    });
    const hooks = new HookEngine();
    const seen: HookInput<'PreToolUse'>[] = [];
    hooks.on('PreToolUse', (input) => void seen.push(input));
    const model = new ScriptedModel([
      [
        toolUse('toolu_1', 'Agent', {
          description: 'look around',
          prompt: 'say hi',
          subagent_type: 'helper',
          run_in_background: true,
        }),
      ],
      { match: 'HELPER-SYSTEM-PROMPT', content: [toolUse('s1', 'Probe', { value: 'inside' })] },
      { match: 'HELPER-SYSTEM-PROMPT', content: [text('SUB-ANSWER hi')] },
      [text('waiting')],
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [probe],
      agents: [HELPER],
      configDir: path.join(projectDir, 'home'),
      observers: [
        (event) => (event.type === 'model_response' && event.text === 'waiting' ? mainStopped() : undefined),
      ],
    });
    expect(result.result).toBe('done');
    const launch = result.messages.find(
      (message): message is ToolResultMessage => message.role === 'tool' && message.toolCallId === 'toolu_1',
    )!;
    expect(launch.isError).toBe(false);
    const agentId = /agentId: (a[0-9a-f]{16})/.exec(launch.content)?.[1];
    expect(launch.content).toMatch(
      /^Async agent launched successfully\.\nagentId: a[0-9a-f]{16}\nThe agent is working in the background\./,
    );
    // Its calls went through the hooks, as the subagent's.
    expect(ran).toEqual(['inside']);
    expect(seen.find((input) => input.tool_name === 'Probe')?.agent_id).toBe(agentId);
    // The notification came after the model had stopped ("waiting"), and it answered again.
    const notice = result.messages.find(
      (message): message is SystemMessage =>
        message.role === 'system' && message.content.includes('<task-notification>'),
    );
    expect(notice?.content).toBe(
      `<task-notification>\n<task-id>${agentId}</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<status>completed</status>\n<summary>Agent "look around" finished</summary>\n<result>SUB-ANSWER hi</result>\n</task-notification>`,
    );
    const order = result.messages
      .filter((message) => message.role === 'assistant')
      .map((message) => message.text);
    expect(order.slice(-2)).toEqual(['waiting', 'done']);
  });
});
