import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_INPUT_CHANGED,
  builtinTools,
  callbackApprover,
  HookEngine,
  loadSession,
  resumeAgent,
  rewriteInput,
  runAgent,
  type RunOptions,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { runCli, writeJson } from '../support/cli.js';
import { pairingViolations, tempProject } from '../support/scripted-run.js';

const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });
const say = (text: string) => ({ type: 'text', text });

function transcriptOf(dir: string, sessionId: string): string {
  const folder = path.join(dir, '.config', 'projects');
  return path.join(folder, fs.readdirSync(folder)[0]!, `${sessionId}.jsonl`);
}

describe('approval that survives a restart (CLI, two processes)', () => {
  it('a deferred pair of calls is approved and denied from a second process; every call is paired and the session resumes again', () => {
    const dir = tempProject();
    const env = { HOOKLOOP_HOME: path.join(dir, '.config') };
    const defer = `cat >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"needs a human"}}'`;
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: defer }] }] },
    });
    writeJson(dir, 'first.json', [
      [bash('toolu_01', 'touch approved.txt'), bash('toolu_02', 'touch denied.txt')],
    ]);
    const first = runCli(
      [
        '-p',
        'make two files',
        '--settings',
        'settings.json',
        '--model-script',
        'first.json',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(first.status, first.stderr).toBe(0);
    const ended = JSON.parse(first.stdout) as {
      session_id: string;
      terminal_reason: string;
      deferred_tool_use: { id: string };
      pending_tool_uses: { id: string; input: unknown; reason: string }[];
    };
    expect(ended).toMatchObject({ terminal_reason: 'tool_deferred', deferred_tool_use: { id: 'toolu_02' } });
    expect(ended.pending_tool_uses).toEqual([
      {
        id: 'toolu_01',
        name: 'Bash',
        input: { command: 'touch approved.txt' },
        reason: 'defer',
        message: 'needs a human',
      },
      {
        id: 'toolu_02',
        name: 'Bash',
        input: { command: 'touch denied.txt' },
        reason: 'defer',
        message: 'needs a human',
      },
    ]);
    expect(fs.existsSync(path.join(dir, 'approved.txt'))).toBe(false);

    // --approve decides the calls of a saved session: without --resume/--continue it is a usage error.
    const unnamed = runCli(['--approve', 'toolu_01', '--model-script', 'first.json'], dir, env);
    expect(unnamed.status).toBe(2);
    expect(unnamed.stderr).toContain(
      '--approve: decides the pending tool calls of a saved session; name it with --resume ID or --continue',
    );

    // A decision for a call that is not pending is one line, exit 2, and runs nothing.
    const wrong = runCli(
      [
        '--resume',
        ended.session_id,
        '--approve',
        'toolu_99',
        '--model-script',
        'first.json',
        '--settings',
        'settings.json',
      ],
      dir,
      env,
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(
      'hookloop: decision for toolu_99: no such pending tool call (pending: toolu_01, toolu_02)\n',
    );

    writeJson(dir, 'second.json', [[say('one file made, one refused')]]);
    const second = runCli(
      [
        '--resume',
        ended.session_id,
        '--approve',
        'toolu_01',
        '--deny',
        'toolu_02=not in this repo',
        '--settings',
        'settings.json',
        '--model-script',
        'second.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      result: 'one file made, one refused',
      terminal_reason: 'completed',
      permission_denials: [{ tool_use_id: 'toolu_02' }],
    });
    expect(fs.existsSync(path.join(dir, 'approved.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'denied.txt'))).toBe(false);
    // PreToolUse ran again for the approved call before it ran (as Claude Code does on resume); not for the denied one.
    const pre = fs
      .readFileSync(path.join(dir, 'pre.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { tool_use_id: string }).tool_use_id);
    expect(pre).toEqual(['toolu_01', 'toolu_02', 'toolu_01']);
    const [request] = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: { role: string; content: unknown }[] });
    const results = request!.messages
      .flatMap((message) =>
        Array.isArray(message.content)
          ? (message.content as {
              type: string;
              tool_use_id?: string;
              content?: unknown;
              is_error?: boolean;
            }[])
          : [],
      )
      .filter((block) => block.type === 'tool_result');
    expect(results.map((block) => [block.tool_use_id, block.is_error === true])).toEqual([
      ['toolu_01', false],
      ['toolu_02', true],
    ]);
    expect(JSON.stringify(results[1])).toContain('not in this repo');

    // The transcript resumes again: every call paired, nothing pending.
    const again = loadSession(transcriptOf(dir, ended.session_id));
    expect(again.pending).toEqual([]);
    expect(again.repairs).toEqual([]);
    expect(pairingViolations(again.messages)).toEqual([]);
    writeJson(dir, 'third.json', [[say('still here')]]);
    const third = runCli(
      [
        '-p',
        'anything else?',
        '--resume',
        ended.session_id,
        '--settings',
        'settings.json',
        '--model-script',
        'third.json',
      ],
      dir,
      env,
    );
    expect(third.status, third.stderr).toBe(0);
    expect(third.stdout).toBe('still here\n');
  });
});

describe("-p --resume ID without a prompt (Claude Code's way of going on after a defer)", () => {
  it('the deferred call goes through PreToolUse and the policy again, undecided, then runs and the model goes on; with nothing pending it is the usual no-input error', () => {
    const dir = tempProject();
    const env = { HOOKLOOP_HOME: path.join(dir, '.config') };
    // Defers the first time it sees a call, lets it through afterwards (the hook decides on resume).
    const deferOnce = `cat >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; if [ ! -f "$CLAUDE_PROJECT_DIR/seen" ]; then touch "$CLAUDE_PROJECT_DIR/seen"; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'; fi`;
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash(touch *)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deferOnce }] }] },
    });
    writeJson(dir, 'first.json', [[bash('toolu_01', 'touch ran.txt')]]);
    const first = runCli(
      ['-p', 'go', '--settings', 'settings.json', '--model-script', 'first.json', '--output-format', 'json'],
      dir,
      env,
    );
    expect(first.status, first.stderr).toBe(0);
    const ended = JSON.parse(first.stdout) as { session_id: string; terminal_reason: string };
    expect(ended.terminal_reason).toBe('tool_deferred');
    expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(false);

    writeJson(dir, 'second.json', [[say('done')]]);
    const second = runCli(
      [
        '-p',
        '--resume',
        ended.session_id,
        '--settings',
        'settings.json',
        '--model-script',
        'second.json',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      result: 'done',
      terminal_reason: 'completed',
      is_error: false,
    });
    expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(true);
    const pre = fs
      .readFileSync(path.join(dir, 'pre.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_use_id: string; tool_input: unknown });
    expect(pre).toMatchObject([
      { tool_use_id: 'toolu_01', tool_input: { command: 'touch ran.txt' } },
      { tool_use_id: 'toolu_01', tool_input: { command: 'touch ran.txt' } },
    ]);

    // Nothing is pending any more: without a prompt there is nothing to do.
    const third = runCli(
      ['-p', '--resume', ended.session_id, '--settings', 'settings.json', '--model-script', 'second.json'],
      dir,
      env,
    );
    expect(third.status).toBe(2);
    expect(third.stderr).toBe(
      'hookloop: -p: Input must be provided either through stdin or as a prompt argument when using --print\n',
    );
  });

  it('undecided on resume, a call the policy asks about is refused headless as it would be live (no approval is implied)', () => {
    const dir = tempProject();
    const env = { HOOKLOOP_HOME: path.join(dir, '.config') };
    const defer = `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'`;
    writeJson(dir, 'first-settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: defer }] }] },
    });
    writeJson(dir, 'first.json', [[bash('toolu_01', 'touch ran.txt')]]);
    const first = runCli(
      [
        '-p',
        'go',
        '--settings',
        'first-settings.json',
        '--model-script',
        'first.json',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    const ended = JSON.parse(first.stdout) as { session_id: string; terminal_reason: string };
    expect(ended.terminal_reason).toBe('tool_deferred');
    writeJson(dir, 'second.json', [[say('refused, then')]]);
    const second = runCli(
      ['-p', '--resume', ended.session_id, '--model-script', 'second.json', '--output-format', 'json'],
      dir,
      env,
    );
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      result: 'refused, then',
      permission_denials: [{ tool_use_id: 'toolu_01' }],
    });
    expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(false);
  });
});

describe('approval that survives a restart (library)', () => {
  function options(projectDir: string, model: ScriptedModel, extra: Partial<RunOptions> = {}): RunOptions {
    return {
      model,
      projectDir,
      tools: builtinTools(),
      configDir: path.join(projectDir, '.config'),
      permissions: { rules: { ask: ['Bash'] } },
      ...extra,
    };
  }

  async function leftForLater(projectDir: string) {
    const first = await runAgent(
      'go',
      options(projectDir, new ScriptedModel([[bash('toolu_01', 'touch later.txt')]]), {
        approver: callbackApprover(() => 'later'),
      }),
    );
    expect(first).toMatchObject({
      terminalReason: 'tool_deferred',
      pending: [{ id: 'toolu_01', reason: 'approver', input: { command: 'touch later.txt' } }],
    });
    return loadSession(first.messages.length > 0 ? transcriptOf(projectDir, first.sessionId) : '');
  }

  it('an approver that answers "later" leaves the call pending; resumeAgent runs it once approved, and the model goes on', async () => {
    const projectDir = tempProject();
    const saved = await leftForLater(projectDir);
    expect(saved.pending.map((call) => call.id)).toEqual(['toolu_01']);
    const model = new ScriptedModel([[say('made it')]]);
    const result = await resumeAgent(
      { toolu_01: { behavior: 'allow' } },
      options(projectDir, model, { resume: saved }),
    );
    expect(result).toMatchObject({ result: 'made it', terminalReason: 'completed' });
    expect(fs.existsSync(path.join(projectDir, 'later.txt'))).toBe(true);
    expect(pairingViolations(result.messages)).toEqual([]);
  });

  it('security: a deny rule still wins over an approval, and a rewrite on resume voids it', async () => {
    const projectDir = tempProject();
    const saved = await leftForLater(projectDir);
    const denied = await resumeAgent(
      { toolu_01: { behavior: 'allow' } },
      options(projectDir, new ScriptedModel([[say('ok')]]), {
        resume: saved,
        permissions: { rules: { deny: ['Bash(touch *)'] } },
      }),
    );
    expect(denied.permissionDenials.map((denial) => denial.tool_use_id)).toEqual(['toolu_01']);
    expect(fs.existsSync(path.join(projectDir, 'later.txt'))).toBe(false);

    const other = tempProject();
    const again = await leftForLater(other);
    const hooks = new HookEngine();
    hooks.on('PreToolUse', () => rewriteInput({ command: 'touch something-else.txt' }));
    const rewritten = await resumeAgent(
      { toolu_01: { behavior: 'allow' } },
      options(other, new ScriptedModel([[say('ok')]]), { resume: again, hooks }),
    );
    expect(rewritten.messages.find((message) => message.role === 'tool')).toMatchObject({
      content: APPROVAL_INPUT_CHANGED,
      isError: true,
    });
    expect(fs.readdirSync(other).filter((name) => name.endsWith('.txt'))).toEqual([]);
  });

  it('an approval of another input, or of a call that is not pending, is an error before anything runs', async () => {
    const projectDir = tempProject();
    const saved = await leftForLater(projectDir);
    const model = new ScriptedModel([]);
    await expect(
      resumeAgent(
        { toolu_01: { behavior: 'allow', input: { command: 'rm -rf /' } } },
        options(projectDir, model, { resume: saved }),
      ),
    ).rejects.toThrow(
      'decision for toolu_01: the approved input is not the pending input {"command":"touch later.txt"}',
    );
    await expect(
      resumeAgent({ toolu_02: { behavior: 'deny' } }, options(projectDir, model, { resume: saved })),
    ).rejects.toThrow('decision for toolu_02: no such pending tool call (pending: toolu_01)');
    expect(model.requests).toHaveLength(0);
  });

  it('a PermissionRequest hook that answers defer leaves the call pending; a new prompt instead pairs it with an error result', async () => {
    const projectDir = tempProject();
    const hooks = new HookEngine();
    hooks.on('PermissionRequest', () => ({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'defer', message: 'ask the on-call' },
      },
    }));
    const model = new ScriptedModel([[bash('toolu_01', 'touch x.txt')], [say('fine')]]);
    const { startSession } = await import('../../src/index.js');
    const session = await startSession(options(projectDir, model, { hooks }));
    const first = await session.send('go');
    expect(first.pending).toEqual([
      {
        id: 'toolu_01',
        name: 'Bash',
        input: { command: 'touch x.txt' },
        reason: 'permission_request',
        message: 'ask the on-call',
      },
    ]);
    const next = await session.send('never mind');
    await session.end();
    expect(next.result).toBe('fine');
    expect(pairingViolations(next.messages)).toEqual([]);
    expect(next.messages.find((message) => message.role === 'tool')).toMatchObject({
      isError: true,
      content: expect.stringContaining('waiting for a decision'),
    });
  });
});
