import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query, type CanUseTool, type SDKResultMessage } from '../../src/agent-sdk/index.js';
import { collect, scripted, toolResults } from './support.js';

const call = (id: string, name: string, input: Record<string, unknown>) => [
  { type: 'tool_use', id, name, input },
];

describe('hookloop/agent-sdk query(): canUseTool, allowedTools, permissionMode', () => {
  it('canUseTool is asked about what the policy asks, with the input and the call id; allow runs the call', async () => {
    const { options } = scripted([
      call('toolu_1', 'Bash', { command: 'touch made' }),
      [{ type: 'text', text: 'done' }],
    ]);
    const asked: { toolName: string; input: Record<string, unknown>; toolUseID: string }[] = [];
    const canUseTool: CanUseTool = async (toolName, input, { toolUseID }) => {
      asked.push({ toolName, input, toolUseID });
      return { behavior: 'allow', updatedInput: input };
    };
    const messages = await collect(query({ prompt: 'make a file', options: { ...options, canUseTool } }));
    expect(asked).toEqual([{ toolName: 'Bash', input: { command: 'touch made' }, toolUseID: 'toolu_1' }]);
    expect(toolResults(messages)[0]!.is_error).toBe(false);
    expect(fs.existsSync(path.join(options.cwd!, 'made'))).toBe(true);
  });

  it('a tool in allowedTools never reaches canUseTool', async () => {
    const { options } = scripted([
      call('toolu_1', 'Bash', { command: 'touch made' }),
      [{ type: 'text', text: 'done' }],
    ]);
    let asked = 0;
    await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          allowedTools: ['Bash'],
          canUseTool: async () => {
            asked++;
            return { behavior: 'deny', message: 'no' };
          },
        },
      }),
    );
    expect(asked).toBe(0);
    expect(fs.existsSync(path.join(options.cwd!, 'made'))).toBe(true);
  });

  it('deny refuses with its message, which the model reads; the run goes on', async () => {
    const { model, options } = scripted([
      call('toolu_1', 'Bash', { command: 'touch made' }),
      [{ type: 'text', text: 'understood' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          canUseTool: async () => ({ behavior: 'deny', message: 'Not in this repository' }),
        },
      }),
    );
    expect(toolResults(messages)[0]).toMatchObject({ is_error: true, content: 'Not in this repository' });
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('Not in this repository');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'understood' });
    expect(fs.existsSync(path.join(options.cwd!, 'made'))).toBe(false);
  });

  it('deny with interrupt ends the run after pairing the call', async () => {
    const { model, options } = scripted([call('toolu_1', 'Bash', { command: 'touch made' })]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          canUseTool: async () => ({ behavior: 'deny', message: 'Stop right there', interrupt: true }),
        },
      }),
    );
    expect(toolResults(messages).map((block) => block.tool_use_id)).toEqual(['toolu_1']);
    expect(model.requests).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({ type: 'result' });
  });

  it('allow with updatedInput runs the rewritten input, which a deny rule still refuses', async () => {
    const { options } = scripted([
      call('toolu_1', 'Bash', { command: 'touch asked' }),
      call('toolu_2', 'Bash', { command: 'touch asked-too' }),
      [{ type: 'text', text: 'done' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          disallowedTools: ['Bash(rm:*)'],
          canUseTool: async (_name, input) =>
            input['command'] === 'touch asked'
              ? { behavior: 'allow', updatedInput: { command: 'touch rewritten' } }
              : { behavior: 'allow', updatedInput: { command: 'rm -rf .' } },
        },
      }),
    );
    expect(fs.existsSync(path.join(options.cwd!, 'rewritten'))).toBe(true);
    expect(fs.existsSync(path.join(options.cwd!, 'asked'))).toBe(false);
    const [first, second] = toolResults(messages);
    expect(first!.is_error).toBe(false);
    expect(second!.is_error).toBe(true);
  });

  it('without canUseTool, what the policy asks about is refused (headless), and disallowedTools deny', async () => {
    const { options } = scripted([
      call('toolu_1', 'Bash', { command: 'touch made' }),
      call('toolu_2', 'Bash', { command: 'echo hi' }),
      [{ type: 'text', text: 'done' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: { ...options, allowedTools: ['Bash'], disallowedTools: ['Bash(touch:*)'] },
      }),
    );
    const [first, second] = toolResults(messages);
    expect(first!.is_error).toBe(true);
    expect(second).toMatchObject({ is_error: false, content: 'hi' });
    const result = messages.at(-1) as SDKResultMessage;
    expect(
      (result.permission_denials as { tool_use_id: string }[]).map((denial) => denial.tool_use_id),
    ).toEqual(['toolu_1']);
  });

  it('setPermissionMode switches the mode for the calls that follow', async () => {
    const { options } = scripted([
      call('toolu_1', 'Write', { file_path: 'a.txt', content: 'a' }),
      [{ type: 'text', text: 'done' }],
    ]);
    const stream = query({ prompt: 'write it', options: { ...options, permissionMode: 'plan' } });
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: 'system', subtype: 'init', permissionMode: 'plan' });
    await stream.setPermissionMode('acceptEdits');
    const rest = await collect(stream);
    expect(toolResults(rest)[0]!.is_error).toBe(false);
    expect(fs.readFileSync(path.join(options.cwd!, 'a.txt'), 'utf8')).toBe('a');
  });

  it('bypassPermissions needs allowDangerouslySkipPermissions, as in the SDK', async () => {
    const { options } = scripted([]);
    await expect(
      collect(query({ prompt: 'go', options: { ...options, permissionMode: 'bypassPermissions' } })),
    ).rejects.toThrow(
      'query() options.permissionMode: "bypassPermissions" needs allowDangerouslySkipPermissions: true',
    );
  });
});
