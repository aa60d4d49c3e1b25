import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMPT_HOOK_SYSTEM } from '../../src/hooks/transports/prompt.js';
import { compatRun, settingsHooks, tempProject, text, toolResults, toolUse } from './support.js';

// `type: "prompt"` (conformance hook-type-prompt, hook-type-prompt-continue):
// one request without tools through the session's model, `$ARGUMENTS`, `{ok, reason}`, `continueOnBlock`.

const PRE = 'PROMPT-HOOK-PRE: is this command safe? $ARGUMENTS';
const STOP = 'PROMPT-HOOK-STOP: may Claude stop?';
const turns = [
  [toolUse('toolu_01', 'Bash', { command: 'echo ran > ran.txt' })],
  [text('after prompt hook')],
  [text('done')],
];

function promptSettings(pre: Record<string, unknown> = {}) {
  return {
    permissions: { allow: ['Bash'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: PRE, ...pre }] }],
      Stop: [{ hooks: [{ type: 'prompt', prompt: STOP }] }],
    },
  };
}

const SAYS_NO = [
  { match: 'PROMPT-HOOK-STOP', text: '{"ok":true}' },
  { match: 'PROMPT-HOOK-PRE', text: '{"ok":false,"reason":"PROMPT-HOOK-SAYS-NO"}' },
];

describe('prompt hooks', () => {
  it('send one request without tools: the hook’s system prompt, the prompt with $ARGUMENTS replaced by the stdin JSON', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(promptSettings({ continueOnBlock: true }), dir);
    const { model } = await compatRun(turns.slice(0, 2), {
      projectDir: dir,
      hooks,
      aux: SAYS_NO,
      permissions: { rules: { allow: ['Bash'] } },
    });
    const verdictRequests = model.requests.filter((request) => request.tools.length === 0);
    expect(verdictRequests).toHaveLength(2);
    const [pre, stop] = verdictRequests;
    expect(pre!.system).toBe(PROMPT_HOOK_SYSTEM);
    expect(pre!.system).toMatch(
      /^You are evaluating a hook in Claude Code\. The user's text says what to check\. Decide whether the action may go ahead\./,
    );
    expect(pre!.system).toMatch(/Always include a "reason" field\.$/);
    expect(pre!.messages).toHaveLength(1);
    const sent = pre!.messages[0]!;
    expect(sent.role).toBe('user');
    const json = (sent as { content: string }).content.replace('PROMPT-HOOK-PRE: is this command safe? ', '');
    expect(JSON.parse(json)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo ran > ran.txt' },
      tool_use_id: 'toolu_01',
      effort: { level: 'medium' },
    });
    // Without $ARGUMENTS the event JSON is appended after a blank line.
    expect((stop!.messages[0] as { content: string }).content).toMatch(
      /^PROMPT-HOOK-STOP: may Claude stop\?\n\n\{"session_id":/,
    );
  });

  it('ok:false ends the turn by default: the call is refused, no PostToolBatch, no Stop, terminal_reason hook_stopped (hook-type-prompt)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(promptSettings(), dir);
    const fired: string[] = [];
    hooks.on('PostToolBatch', () => void fired.push('PostToolBatch'));
    hooks.on('Stop', () => void fired.push('Stop'));
    const { result, model } = await compatRun(turns, {
      projectDir: dir,
      hooks,
      aux: SAYS_NO,
      lenient: true,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(result).toMatchObject({
      result: '',
      terminalReason: 'hook_stopped',
      stopReason: 'tool_use',
      isError: false,
    });
    expect(result.permissionDenials).toEqual([
      { tool_name: 'Bash', tool_use_id: 'toolu_01', tool_input: { command: 'echo ran > ran.txt' } },
    ]);
    expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(false);
    expect(fired).toEqual([]);
    expect(model.requests.filter((request) => request.tools.length > 0)).toHaveLength(1);
  });

  it('ok:false with continueOnBlock is a tool error `[<prompt>]: <reason>` and the turn goes on; Stop ok:true ends it (hook-type-prompt-continue)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(promptSettings({ continueOnBlock: true }), dir);
    const { result } = await compatRun(turns.slice(0, 2), {
      projectDir: dir,
      hooks,
      aux: SAYS_NO,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      content: `PreToolUse:Bash hook error: [${PRE}]: PROMPT-HOOK-SAYS-NO`,
    });
    expect(result).toMatchObject({ result: 'after prompt hook', terminalReason: 'completed' });
  });

  it('a Stop prompt hook that says ok:false makes the model go on with its reason', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: STOP }] }] } },
      dir,
    );
    // The request holds the event JSON inside a JSON-encoded message, hence the escaped quotes.
    const aux = [
      { match: 'last_assistant_message\\":\\"first', text: '{"ok":false,"reason":"tests not run"}' },
      { text: '{"ok":true}' },
    ];
    const { result, model } = await compatRun([[text('first')], [text('second')]], {
      projectDir: dir,
      hooks,
      aux,
    });
    expect(model.requests.filter((request) => request.tools.length === 0)).toHaveLength(2);
    expect(result.result).toBe('second');
    expect(
      model.requests
        .filter((request) => request.tools.length > 0)
        .at(-1)!
        .messages.at(-1),
    ).toEqual({
      role: 'user',
      content: 'Stop hook feedback:\nPrompt hook condition was not met: tests not run',
    });
  });

  it('an answer that is not the verdict JSON is a non-blocking failure (blocking with onFailure "block")', async () => {
    const garbage = [{ text: 'I think it is fine.' }];
    const open = tempProject();
    const { hooks } = settingsHooks(
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: PRE }] }] } },
      open,
    );
    const ran = await compatRun(turns.slice(0, 2), {
      projectDir: open,
      hooks,
      aux: garbage,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(ran.result.messages)[0]!.isError).toBe(false);
    expect(ran.events.find((event) => event.type === 'hook_outcome')).toMatchObject({
      outcome: { status: 'failed', error: expect.stringContaining('is not {"ok", "reason"} JSON') },
    });

    const closed = tempProject();
    const { hooks: strict } = settingsHooks(
      {
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: PRE, onFailure: 'block' }] }],
        },
      },
      closed,
    );
    const refused = await compatRun(turns.slice(0, 2), {
      projectDir: closed,
      hooks: strict,
      aux: garbage,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(refused.result.messages)[0]!.content).toMatch(
      /^PreToolUse:Bash hook error: \[PROMPT-HOOK-PRE: is this command safe\? \$ARGUMENTS\]: failed; blocking because onFailure is "block"\n/,
    );
  });

  it('the handler’s "model" field is reported as unused (hookloop asks the session’s model)', () => {
    const { warnings } = settingsHooks(
      { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: STOP, model: 'claude-haiku-4' }] }] } },
      tempProject(),
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /hooks\.Stop\[0\]\.hooks\[0\]: "model" is not used: hookloop asks the session's model for prompt hooks$/,
      ),
    ]);
  });
});
