import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/index.js';
import { compatRun, settingsHooks, tempProject, text, toolResults, toolUse } from './support.js';

// Reliability settings beyond the reference — onFailure on every blocking event,
// bounded http retries (http-hooks.test.ts), a concurrency limit per event, and no silent
// switch-off of a failing guard.

/** A command that fails (exit 1) the first time it runs in a project, and succeeds afterwards. */
const failOnce = (name: string) =>
  `cat >/dev/null; [ -f "$CLAUDE_PROJECT_DIR/${name}" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/${name}"; echo "${name} broke" >&2; exit 1`;
const blocking = (command: string) => ({ type: 'command', command, onFailure: 'block' });
// Claude Code puts the stderr there as printed (its newline included), without an `exit code 1:` prefix.
const FAILED = (command: string, stderr: string) =>
  `[${command}]: failed; blocking because onFailure is "block"\n${stderr}\n`;

describe('onFailure "block" works on every event that can block', () => {
  it('UserPromptSubmit: the prompt is refused', async () => {
    const dir = tempProject();
    const command = failOnce('ups');
    const { hooks } = settingsHooks({ hooks: { UserPromptSubmit: [{ hooks: [blocking(command)] }] } }, dir);
    const { result, model } = await compatRun([], { projectDir: dir, hooks }, 'hello');
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({
      terminalReason: 'prompt_blocked',
      result: `UserPromptSubmit operation blocked by hook:\n${FAILED(command, 'ups broke')}\n\nOriginal prompt: hello`,
    });
  });

  it('PreToolUse and PermissionRequest: the call is refused', async () => {
    for (const event of ['PreToolUse', 'PermissionRequest']) {
      const dir = tempProject();
      const command = failOnce('gate');
      const { hooks } = settingsHooks({ hooks: { [event]: [{ hooks: [blocking(command)] }] } }, dir);
      const { result } = await compatRun(
        [[toolUse('toolu_01', 'Bash', { command: 'touch out.txt' })], [text('done')]],
        { projectDir: dir, hooks },
      );
      expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
      expect(toolResults(result.messages)[0]!.content).toBe(
        event === 'PreToolUse'
          ? `PreToolUse:Bash hook error: ${FAILED(command, 'gate broke')}`
          : FAILED(command, 'gate broke'),
      );
    }
  });

  it('PostToolUse: a blocking error next to the unchanged result; PostToolBatch: the run ends', async () => {
    const post = tempProject();
    const command = failOnce('post');
    const { hooks } = settingsHooks({ hooks: { PostToolUse: [{ hooks: [blocking(command)] }] } }, post);
    const ran = await compatRun([[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]], {
      projectDir: post,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(ran.model.requests[1]!.messages.at(-1)).toEqual({
      role: 'system',
      content: `PostToolUse:Bash hook blocking error ${FAILED(command, 'post broke')}`,
    });

    const batch = tempProject();
    const { hooks: batchHooks } = settingsHooks(
      { hooks: { PostToolBatch: [{ hooks: [blocking(failOnce('batch'))] }] } },
      batch,
    );
    const ended = await compatRun([[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('never')]], {
      projectDir: batch,
      hooks: batchHooks,
      lenient: true,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(ended.result.terminalReason).toBe('hook_stopped');
  });

  it('Stop and SubagentStop: the (sub)agent takes another turn with the failure as feedback', async () => {
    const dir = tempProject();
    const command = failOnce('stop');
    const { hooks } = settingsHooks({ hooks: { Stop: [{ hooks: [blocking(command)] }] } }, dir);
    const { result, model } = await compatRun([[text('first')], [text('second')]], {
      projectDir: dir,
      hooks,
    });
    expect(result.result).toBe('second');
    expect(model.requests[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: `Stop hook feedback:\n${FAILED(command, 'stop broke')}`,
    });

    const sub = tempProject();
    const subCommand = failOnce('substop');
    const { hooks: subHooks } = settingsHooks(
      {
        hooks: {
          Stop: [{ hooks: [{ type: 'agent', prompt: 'VERIFY $ARGUMENTS' }] }],
          SubagentStop: [{ hooks: [blocking(subCommand)] }],
        },
      },
      sub,
    );
    const verified = await compatRun(
      [
        [text('main')],
        { match: 'VERIFY', content: [toolUse('toolu_a1', 'StructuredOutput', { ok: true })] },
        { match: 'substop broke', content: [toolUse('toolu_a2', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: sub, hooks: subHooks },
    );
    expect(verified.result.result).toBe('main');
    expect(verified.model.requests).toHaveLength(3);
  });

  it('is reported as having no effect on events that cannot block', () => {
    const { warnings } = settingsHooks(
      {
        hooks: {
          PostToolUseFailure: [{ hooks: [blocking('true')] }],
          Notification: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/', onFailure: 'block' }] }],
        },
      },
      tempProject(),
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /hooks\.PostToolUseFailure\[0\]\.hooks\[0\]: onFailure "block" has no effect on PostToolUseFailure, which cannot block; a failure there is reported and ignored$/,
      ),
      expect.stringMatching(
        /hooks\.Notification\[0\]\.hooks\[0\]: onFailure "block" has no effect on Notification, which cannot block; a failure there is reported and ignored$/,
      ),
    ]);
  });
});

describe('hookConcurrency: a limit per event', () => {
  /** Each hook logs its start and end (ms) and sleeps 0.3 s. */
  const timed = (name: string) => ({
    type: 'command',
    command: `cat >/dev/null; echo "start ${name} $(date +%s%3N)" >> "$CLAUDE_PROJECT_DIR/t.log"; sleep 0.3; echo "end ${name} $(date +%s%3N)" >> "$CLAUDE_PROJECT_DIR/t.log"; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"${name}"}}'`,
  });

  function maxOverlap(dir: string): number {
    let running = 0;
    let most = 0;
    const events = fs
      .readFileSync(path.join(dir, 't.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([kind, , at]) => ({ kind: kind!, at: Number(at) }))
      .sort((a, b) => a.at - b.at || (a.kind === 'end' ? -1 : 1));
    for (const event of events) {
      running += event.kind === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    return most;
  }

  it('runs at most N handlers of the event at once, and still merges their answers in settings order', async () => {
    const dir = tempProject();
    const settings = {
      hookConcurrency: { PreToolUse: 2 },
      hooks: { PreToolUse: [{ hooks: ['a', 'b', 'c', 'd', 'e'].map(timed) }] },
    };
    const loaded = loadSettings({
      projectDir: dir,
      homeDir: path.join(dir, 'home'),
      flagSettings: JSON.stringify(settings),
    });
    expect(loaded.hookConcurrency).toEqual({ PreToolUse: 2 });
    const { hooks } = settingsHooks(settings, dir, loaded.hookConcurrency);
    const { model } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]],
      { projectDir: dir, hooks, permissions: { rules: { allow: ['Bash'] } } },
    );
    expect(maxOverlap(dir)).toBe(2);
    expect(model.requests[1]!.messages.at(-1)).toEqual({
      role: 'system',
      content: ['a', 'b', 'c', 'd', 'e']
        .map((name) => `PreToolUse:Bash hook additional context: ${name}`)
        .join('\n\n'),
    });
  });

  it('without a limit all handlers start together, as the reference', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks({ hooks: { PreToolUse: [{ hooks: ['a', 'b', 'c'].map(timed) }] } }, dir);
    await compatRun([[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]], {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(maxOverlap(dir)).toBe(3);
  });

  it('leaves a file with a limit below 1 out (like any known key of the wrong type) and warns about an event hookloop does not fire', () => {
    const dir = tempProject();
    expect(
      loadSettings({ projectDir: dir, homeDir: dir, flagSettings: '{"hookConcurrency":{"PreToolUse":0}}' })
        .warnings,
    ).toEqual([
      '--settings: hookConcurrency.PreToolUse: expected a whole number of at least 1, got 0; the whole file is ignored (its deny and ask rules still count)',
    ]);
    expect(
      loadSettings({ projectDir: dir, homeDir: dir, flagSettings: '{"hookConcurrency":{"OnSave":2}}' })
        .warnings,
    ).toEqual(['--settings: hookConcurrency.OnSave: hookloop does not fire "OnSave"; its limit is ignored']);
  });
});

describe('a failing guard is never switched off silently', () => {
  it('a hook that denied earlier and now fails open is said to be failing open, every time, and keeps running', async () => {
    const dir = tempProject();
    // Denies `rm`, and breaks (exit 1) on anything else: a guard with a bug.
    const guard = `input=$(cat); case "$input" in *'"rm '*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}';; *) echo "guard crashed" >&2; exit 1;; esac`;
    const { hooks } = settingsHooks(
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } },
      dir,
    );
    const calls = [
      toolUse('toolu_01', 'Bash', { command: 'rm -f a' }),
      toolUse('toolu_02', 'Bash', { command: 'echo one' }),
      toolUse('toolu_03', 'Bash', { command: 'echo two' }),
    ];
    const { result, events } = await compatRun([calls, [text('done')]], {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(result.messages).map((message) => message.content)).toEqual([
      'PreToolUse:Bash hook error: no rm',
      'one',
      'two',
    ]);
    const failures = events.flatMap((event) =>
      event.type === 'hook_outcome' && event.outcome.status === 'failed' ? [event.outcome.error] : [],
    );
    expect(failures).toEqual([
      'exit code 1: guard crashed; this hook refused earlier in this session and its failure now lets PreToolUse go through (set "onFailure": "block" to fail closed)',
      'exit code 1: guard crashed; this hook refused earlier in this session and its failure now lets PreToolUse go through (set "onFailure": "block" to fail closed)',
    ]);
  });
});
