import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lifecycleLog } from '../../src/cli/lifecycle-log.js';
import { HookEngine } from '../../src/index.js';
import { MAX_CONTEXT_CHARS } from '../../src/hooks/output-size.js';
import { compatRun, settingsHooks, tempProject, text, textsSent, toolResults, toolUse } from './support.js';

// Every honoured output, exactly as Claude Code documents and does it, through settings hooks.

const json = (value: unknown) => `cat >/dev/null; echo '${JSON.stringify(value)}'`;
const pre = (output: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', ...output },
});
const allowBash = { permissions: { rules: { allow: ['Bash'] } } };

describe('PreToolUse permissionDecision "defer"', () => {
  it('ends a headless run with the deferred call in the result (pre-json-defer)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', command: json(pre({ permissionDecision: 'defer' })) }] }],
        },
      },
      dir,
    );
    const { result } = await compatRun([[toolUse('toolu_01', 'Bash', { command: 'echo hi' })]], {
      projectDir: dir,
      hooks,
      ...allowBash,
    });
    expect(result).toMatchObject({
      result: '',
      terminalReason: 'tool_deferred',
      stopReason: 'tool_deferred',
      deferredToolUse: { id: 'toolu_01', name: 'Bash', input: { command: 'echo hi' } },
    });
  });

  it('in a turn of several calls none runs, every call still gets PreToolUse, and the last deferred call is reported (pre-json-defer-batch)', async () => {
    const dir = tempProject();
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on('PreToolUse', ({ tool_use_id }) => {
      seen.push(tool_use_id);
      return tool_use_id === 'toolu_02'
        ? undefined
        : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } };
    });
    const calls = ['toolu_01', 'toolu_02', 'toolu_03'].map((id) =>
      toolUse(id, 'Bash', { command: `touch ${id}` }),
    );
    const { result } = await compatRun([calls], { projectDir: dir, hooks, ...allowBash });
    expect(seen).toEqual(['toolu_01', 'toolu_02', 'toolu_03']);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('toolu_'))).toEqual([]);
    expect(result.deferredToolUse).toMatchObject({ id: 'toolu_03' });
    // None has a result yet: all three wait for a decision, toolu_02 because a call before it waits.
    expect(toolResults(result.messages)).toEqual([]);
    expect(result.pending?.map((call) => [call.id, call.reason])).toEqual([
      ['toolu_01', 'defer'],
      ['toolu_02', 'batch'],
      ['toolu_03', 'defer'],
    ]);
  });
});

describe('PreToolUse updatedInput precedence', () => {
  // Each hook rewrites to its own command; the slow one is first in settings order.
  const rewriter = (name: string, extra: Record<string, unknown> = {}, delay = 0) => ({
    type: 'command',
    command: `cat >/dev/null; sleep ${delay}; echo '${JSON.stringify(pre({ updatedInput: { command: `echo ${name}` }, ...extra }))}'`,
  });

  it('several rewrites: the last in settings order wins, whichever finishes last', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          PreToolUse: [
            { hooks: [rewriter('one', {}, 0), rewriter('two', {}, 0.4)] },
            { hooks: [rewriter('three', {}, 0.8)] },
          ],
        },
      },
      dir,
    );
    const { result } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo model' })], [text('done')]],
      { projectDir: dir, hooks, ...allowBash },
    );
    expect(toolResults(result.messages)[0]!.content).toBe('three');
    const reversed = tempProject();
    const { hooks: other } = settingsHooks(
      { hooks: { PreToolUse: [{ hooks: [rewriter('one', {}, 0.8), rewriter('two', {}, 0)] }] } },
      reversed,
    );
    const again = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo model' })], [text('done')]],
      { projectDir: reversed, hooks: other, ...allowBash },
    );
    expect(toolResults(again.result.messages)[0]!.content).toBe('two');
  });

  it('a rewrite without a decision joins another hook’s allow; a rewrite with a weaker decision than the winner is dropped', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                rewriter('rewritten'),
                { type: 'command', command: json(pre({ permissionDecision: 'allow' })) },
              ],
            },
          ],
        },
      },
      dir,
    );
    const { result } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo model' })], [text('done')]],
      { projectDir: dir, hooks },
    );
    expect(toolResults(result.messages)[0]!.content).toBe('rewritten');

    const asked = tempProject();
    const askHook = {
      type: 'command',
      command: json(
        pre({
          permissionDecision: 'ask',
          permissionDecisionReason: 'ASK',
          updatedInput: { command: 'echo from-ask' },
        }),
      ),
    };
    const { hooks: both } = settingsHooks(
      {
        hooks: {
          PreToolUse: [{ hooks: [askHook, rewriter('from-allow', { permissionDecision: 'allow' })] }],
        },
      },
      asked,
    );
    const refused = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo model' })], [text('done')]],
      { projectDir: asked, hooks: both },
    );
    expect(toolResults(refused.result.messages)[0]).toMatchObject({ isError: true, content: 'ASK' });
    expect(refused.result.permissionDenials[0]!.tool_input).toEqual({ command: 'echo from-ask' });
  });
});

describe('PostToolUse updatedToolOutput', () => {
  it('replaces the output when it has the tool’s output shape; a plain string for Bash is ignored with a warning (post-updated-tool-output)', async () => {
    const good = {
      stdout: '[redacted]',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    };
    for (const [updated, seen] of [
      [good, '[redacted]'],
      ['[redacted]', 'secret'],
    ] as const) {
      const dir = tempProject();
      const { hooks } = settingsHooks(
        {
          hooks: {
            PostToolUse: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: json({
                      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: updated },
                    }),
                  },
                ],
              },
            ],
          },
        },
        dir,
      );
      const { result, userLines } = await compatRun(
        [[toolUse('toolu_01', 'Bash', { command: 'echo secret' })], [text('done')]],
        { projectDir: dir, hooks, ...allowBash },
      );
      expect(toolResults(result.messages)[0]!.content).toBe(seen);
      if (typeof updated === 'string')
        expect(userLines).toEqual([
          expect.stringMatching(/^PostToolUse:Bash updatedToolOutput ignored: \(root\): /),
        ]);
    }
  });
});

describe('additionalContext over 10,000 characters', () => {
  it('is saved whole next to the transcript and the model gets the <persisted-output> preview (pre-huge-output)', async () => {
    const dir = tempProject();
    const big = `${'line of context\n'.repeat(900)}END`;
    expect(big.length).toBeGreaterThan(MAX_CONTEXT_CHARS);
    fs.writeFileSync(path.join(dir, 'big.json'), JSON.stringify(pre({ additionalContext: big })));
    const { hooks } = settingsHooks(
      {
        hooks: {
          PreToolUse: [
            { hooks: [{ type: 'command', command: 'cat >/dev/null; cat "$CLAUDE_PROJECT_DIR/big.json"' }] },
          ],
        },
      },
      dir,
    );
    const transcriptPath = path.join(dir, 'projects', 'slug', 'session-1.jsonl');
    const { model } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]],
      { projectDir: dir, hooks, transcriptPath, ...allowBash },
    );
    const context = model.requests[1]!.messages.at(-1)! as { role: string; content: string };
    const match =
      /^PreToolUse:Bash hook additional context: <persisted-output>\nOutput too large \(14\.1KB\)\. Full output saved to: (\S+)\n\nPreview \(first 2KB\):\n([\s\S]*)\n\.\.\.\n<\/persisted-output>$/.exec(
        context.content,
      );
    expect(match).not.toBeNull();
    const [, file, preview] = match!;
    expect(file).toMatch(
      new RegExp(
        `^${dir}/projects/slug/session-1/tool-results/hook-toolu_01-PreToolUse-[0-9a-f]{32}-additionalContext\\.txt$`,
      ),
    );
    expect(fs.readFileSync(file!, 'utf8')).toBe(big);
    expect(big.startsWith(preview!)).toBe(true);
    expect(preview!.length).toBeLessThanOrEqual(2000);
    expect(preview!.endsWith('line of context')).toBe(true);
  });
});

describe('blocks, legacy decisions, continue:false, systemMessage, suppressOutput', () => {
  it('PostToolUse decision:block keeps the result and adds the labelled reason (post-block-reason)', async () => {
    const dir = tempProject();
    const command = json({ decision: 'block', reason: 'POST-REASON' });
    const { hooks } = settingsHooks(
      { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command }] }] } },
      dir,
    );
    const { result, model } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]],
      { projectDir: dir, hooks, ...allowBash },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: false, content: 'hi' });
    expect(model.requests[1]!.messages.at(-1)).toEqual({
      role: 'system',
      content: `PostToolUse:Bash hook blocking error from command: "${command}": POST-REASON`,
    });
  });

  it('legacy {"decision":"block"} refuses like deny, {"decision":"approve"} allows without a prompt (pre-legacy-decision)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: json({ decision: 'block', reason: 'LEGACY-NO' }),
                  if: 'Bash(rm *)',
                },
              ],
            },
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: json({ decision: 'approve' }), if: 'Bash(touch *)' }],
            },
          ],
        },
      },
      dir,
    );
    const { result } = await compatRun(
      [
        [
          toolUse('toolu_01', 'Bash', { command: 'rm -f x' }),
          toolUse('toolu_02', 'Bash', { command: 'touch approved.txt' }),
        ],
        [text('done')],
      ],
      { projectDir: dir, hooks },
    );
    expect(toolResults(result.messages).map((message) => message.content)).toEqual([
      'PreToolUse:Bash hook error: LEGACY-NO',
      '(Bash completed with no output)',
    ]);
    expect(fs.existsSync(path.join(dir, 'approved.txt'))).toBe(true);
  });

  it('continue:false ends the run after the step; stopReason and systemMessage reach the user (stderr), never the model', async () => {
    const dir = tempProject();
    const output = {
      continue: false,
      stopReason: 'STOP-REASON-FOR-USER',
      systemMessage: 'SYSTEM-MESSAGE-FOR-USER',
    };
    const { hooks } = settingsHooks(
      { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: json(output) }] }] } },
      dir,
    );
    const { result, userLines, model } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('never')]],
      { projectDir: dir, hooks, lenient: true, ...allowBash },
    );
    expect(result).toMatchObject({ result: '', terminalReason: 'hook_stopped' });
    expect(model.requests).toHaveLength(1);
    expect(userLines).toEqual([
      'SYSTEM-MESSAGE-FOR-USER',
      'PostToolUse hook stopped the run: STOP-REASON-FOR-USER',
    ]);
    expect(textsSent(result.messages).join('\n')).not.toMatch(/FOR-USER/);
  });

  it('systemMessage of a hook that lets the run go on is shown to the user only', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: json({ systemMessage: 'HELLO-USER' }) }] },
          ],
        },
      },
      dir,
    );
    const { model, userLines } = await compatRun([[text('done')]], { projectDir: dir, hooks });
    expect(userLines).toEqual(['HELLO-USER']);
    expect(JSON.stringify(model.requests)).not.toContain('HELLO-USER');
  });

  it('suppressOutput hides a successful hook’s line from the verbose log; failures are always shown', () => {
    const lines: string[] = [];
    const log = lifecycleLog((line) => lines.push(line), true);
    const origin = { transport: 'command' as const, text: 'hook.sh', source: 'settings.json' };
    log({
      type: 'hook_outcome',
      event: 'PreToolUse',
      matchValue: 'Bash',
      outcome: { origin, status: 'ok', output: { suppressOutput: true }, failClosed: false, durationMs: 1 },
    });
    log({
      type: 'hook_outcome',
      event: 'PreToolUse',
      matchValue: 'Bash',
      outcome: { origin, status: 'ok', output: {}, failClosed: false, durationMs: 1 },
    });
    log({
      type: 'hook_outcome',
      event: 'PreToolUse',
      matchValue: 'Bash',
      outcome: {
        origin,
        status: 'failed',
        output: { suppressOutput: true },
        error: 'exit code 1',
        failClosed: false,
        durationMs: 1,
      },
    });
    expect(lines).toEqual([
      '[Hook] PreToolUse: Bash -> ok [hook.sh]',
      '[Hook] PreToolUse: Bash -> failed (non-blocking): [hook.sh]: exit code 1',
    ]);
  });
});

describe('PermissionRequest decision', () => {
  it('allow with updatedInput runs the new input; updatedPermissions addRules spares later calls the request (permission-request-hook-allow)', async () => {
    const dir = tempProject();
    const decision = {
      behavior: 'allow',
      updatedInput: { command: 'mkdir rewritten' },
      updatedPermissions: [
        {
          type: 'addRules',
          rules: [{ toolName: 'Bash', ruleContent: 'mkdir:*' }],
          behavior: 'allow',
          destination: 'session',
        },
      ],
    };
    const { hooks } = settingsHooks(
      {
        hooks: {
          PermissionRequest: [
            {
              hooks: [
                {
                  type: 'command',
                  command: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }),
                },
              ],
            },
          ],
        },
      },
      dir,
    );
    let requests = 0;
    hooks.on('PermissionRequest', () => void requests++);
    await compatRun(
      [
        [toolUse('toolu_01', 'Bash', { command: 'mkdir first' })],
        [toolUse('toolu_02', 'Bash', { command: 'mkdir second' })],
        [text('done')],
      ],
      { projectDir: dir, hooks },
    );
    expect(fs.existsSync(path.join(dir, 'rewritten'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'second'))).toBe(true);
    expect(requests).toBe(1);
  });

  it('deny with a message refuses with the bare message; interrupt:true ends the run aborted_tools, no PostToolBatch, no Stop (permission-request-hook-deny)', async () => {
    const dir = tempProject();
    const decision = { behavior: 'deny', message: 'NOPE', interrupt: true };
    const { hooks } = settingsHooks(
      {
        hooks: {
          PermissionRequest: [
            {
              hooks: [
                {
                  type: 'command',
                  command: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }),
                },
              ],
            },
          ],
        },
      },
      dir,
    );
    const fired: string[] = [];
    hooks.on('PostToolBatch', () => void fired.push('PostToolBatch'));
    hooks.on('Stop', () => void fired.push('Stop'));
    const { result } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'mkdir first' })], [text('never')]],
      { projectDir: dir, hooks, lenient: true },
    );
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true, content: 'NOPE' });
    expect(result).toMatchObject({ terminalReason: 'aborted_tools', isError: true });
    expect(fired).toEqual([]);
  });
});
