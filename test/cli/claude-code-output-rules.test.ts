import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// How Claude Code 2.1.328 reads what a command hook printed, measured with the conformance runner
// on both agents: a byte order mark before the JSON, the
// defaults of a refusal that gives no reason, JSON on exit 2, the legacy `decision` on every
// event, and `continue: false` on UserPromptSubmit. Each case runs through `hookloop -p`.

const HOOK = '"$CLAUDE_PROJECT_DIR"/hook.sh';

/** A project whose only hook, `hook.sh`, runs `body` on `event`; returns the run and every text the model was sent last. */
function run(event: string, body: string, turns: unknown, options: { permissions?: unknown } = {}) {
  const dir = tempProject({ 'hook.sh': `#!/bin/bash\ncat > /dev/null\n${body}\n` });
  fs.chmodSync(path.join(dir, 'hook.sh'), 0o755);
  writeJson(dir, 'settings.json', {
    permissions: options.permissions ?? { allow: ['Bash'] },
    hooks: { [event]: [{ hooks: [{ type: 'command', command: HOOK }] }] },
  });
  writeJson(dir, 'turns.json', turns);
  const result = runCli(
    [
      '-p',
      'go',
      '--settings',
      'settings.json',
      '--model-script',
      'turns.json',
      '--output-format',
      'json',
      '--record-requests',
      'requests.jsonl',
    ],
    dir,
  );
  const requests = fs.existsSync(path.join(dir, 'requests.jsonl'))
    ? fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').filter(Boolean)
    : [];
  const last =
    requests.length > 0 ? (JSON.parse(requests.at(-1)!) as { messages: unknown[] }) : { messages: [] };
  return {
    dir,
    ...result,
    requests: requests.length,
    json: JSON.parse(result.stdout || '{}') as { result?: string; num_turns?: number },
    texts: textsOf(last.messages),
  };
}

/** Every text the messages carry: text blocks, tool results (as `is_error|content`) and system messages. */
function textsOf(messages: unknown[]): string[] {
  const texts: string[] = [];
  for (const message of messages as { content: unknown }[]) {
    if (typeof message.content === 'string') texts.push(message.content);
    else
      for (const block of message.content as {
        type: string;
        text?: string;
        content?: unknown;
        is_error?: boolean;
      }[]) {
        if (block.type === 'text' && block.text !== undefined) texts.push(block.text);
        if (block.type === 'tool_result')
          texts.push(
            `${block.is_error === true ? 'error' : 'ok'}|${typeof block.content === 'string' ? block.content : JSON.stringify(block.content)}`,
          );
      }
  }
  return texts;
}

const print = (value: unknown) => `printf '%s\\n' '${JSON.stringify(value)}'`;
const bashCall = (command: string) => [
  [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command } }],
  [{ type: 'text', text: 'done' }],
];
const deny = (fields: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', ...fields },
});

describe('a byte order mark before the JSON', () => {
  it('is dropped: the deny after it denies', () => {
    const { dir, texts } = run(
      'PreToolUse',
      `printf '\\xef\\xbb\\xbf'; ${print(deny({ permissionDecisionReason: 'BOM-DENY' }))}`,
      bashCall('touch canary'),
    );
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(texts).toContain('error|PreToolUse:Bash hook error: BOM-DENY');
  });

  it('is dropped before PostToolUse context too', () => {
    const context = {
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'BOM-CONTEXT' },
    };
    const { texts } = run('PostToolUse', `printf '\\xef\\xbb\\xbf'; ${print(context)}`, bashCall('true'));
    expect(texts).toContain('PostToolUse:Bash hook additional context: BOM-CONTEXT');
  });
});

describe('a refusal that gives no reason', () => {
  it('PreToolUse deny without any reason reads "Blocked by hook"; with only a top-level reason, that reason', () => {
    expect(run('PreToolUse', print(deny({})), bashCall('true')).texts).toContain(
      'error|PreToolUse:Bash hook error: Blocked by hook',
    );
    expect(run('PreToolUse', print({ decision: 'block' }), bashCall('true')).texts).toContain(
      'error|PreToolUse:Bash hook error: Blocked by hook',
    );
    expect(run('PreToolUse', print({ reason: 'TOP-LEVEL', ...deny({}) }), bashCall('true')).texts).toContain(
      'error|PreToolUse:Bash hook error: TOP-LEVEL',
    );
  });

  it('a legacy decision "block" blocks even next to permissionDecision "allow"; permissionDecisionReason wins over reason', () => {
    const both = {
      decision: 'block',
      reason: 'LEGACY-BLOCK',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    };
    const blocked = run('PreToolUse', print(both), bashCall('touch canary'));
    expect(fs.existsSync(path.join(blocked.dir, 'canary'))).toBe(false);
    expect(blocked.texts).toContain('error|PreToolUse:Bash hook error: LEGACY-BLOCK');
    expect(
      run(
        'PreToolUse',
        print({ decision: 'block', reason: 'LEGACY', ...deny({ permissionDecisionReason: 'SPECIFIC' }) }),
        bashCall('true'),
      ).texts,
    ).toContain('error|PreToolUse:Bash hook error: SPECIFIC');
  });

  it('Stop and PostToolUse blocks without a reason read "Blocked by hook"', () => {
    const stop = run(
      'Stop',
      `[ -f "$CLAUDE_PROJECT_DIR/once" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/once"; ${print({ decision: 'block' })}`,
      [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]],
    );
    expect(stop.texts).toContain('Stop hook feedback:\nBlocked by hook');
    expect(run('PostToolUse', print({ decision: 'block' }), bashCall('true')).texts).toContain(
      `PostToolUse:Bash hook blocking error from command: "${HOOK}": Blocked by hook`,
    );
  });

  it('an ask without a reason is refused in -p with "Hook PreToolUse:<Tool> asked for confirmation for this tool"', () => {
    const ask = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } };
    expect(run('PreToolUse', print(ask), bashCall('true'), { permissions: {} }).texts).toContain(
      'error|Hook PreToolUse:Bash asked for confirmation for this tool',
    );
  });

  it('a PermissionRequest deny without a message reads "Permission denied by hook"', () => {
    const answer = {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } },
    };
    const { dir, texts } = run('PermissionRequest', print(answer), bashCall('touch canary'), {
      permissions: {},
    });
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(texts).toContain('error|Permission denied by hook');
  });

  it('exit 2 with nothing on stderr reads "No stderr output"', () => {
    expect(run('PreToolUse', 'exit 2', bashCall('true')).texts).toContain(
      `error|PreToolUse:Bash hook error: [${HOOK}]: No stderr output`,
    );
    expect(run('UserPromptSubmit', 'exit 2', [[{ type: 'text', text: 'done' }]]).json.result).toBe(
      `UserPromptSubmit operation blocked by hook:\n[${HOOK}]: No stderr output\n\nOriginal prompt: go`,
    );
  });
});

describe('a deny on the file tools', () => {
  it('a refusal on Write, Edit, Read or Glob is labelled PreToolUse:<Tool> hook error:, whether a JSON deny, a legacy block or an exit 2', () => {
    const hooks = {
      Write: print(deny({ permissionDecisionReason: 'WRITE-DENY' })),
      Edit: print({ decision: 'block', reason: 'EDIT-BLOCK' }),
      Read: 'echo READ-EXIT2 >&2; exit 2',
      Glob: print(deny({ permissionDecisionReason: 'GLOB-DENY' })),
    };
    const dir = tempProject({ 'e.txt': 'abc\n' });
    const settings = {
      permissions: { allow: ['Write', 'Edit', 'Read', 'Glob'] },
      hooks: {
        PreToolUse: Object.entries(hooks).map(([matcher, body]) => ({
          matcher,
          hooks: [{ type: 'command', command: `cat > /dev/null; ${body}` }],
        })),
      },
    };
    writeJson(dir, 'settings.json', settings);
    const calls = [
      { name: 'Write', input: { file_path: 'w.txt', content: 'x' } },
      { name: 'Edit', input: { file_path: 'e.txt', old_string: 'abc', new_string: 'x' } },
      { name: 'Read', input: { file_path: 'e.txt' } },
      { name: 'Glob', input: { pattern: '*.txt' } },
    ];
    writeJson(dir, 'turns.json', [
      calls.map((call, index) => ({ type: 'tool_use', id: `toolu_0${index + 1}`, ...call })),
      [{ type: 'text', text: 'done' }],
    ]);
    runCli(
      [
        '-p',
        'go',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
      ],
      dir,
    );
    const last = JSON.parse(
      fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').at(-1)!,
    ) as { messages: unknown[] };
    expect(textsOf(last.messages).filter((text) => text.startsWith('error|'))).toEqual([
      'error|PreToolUse:Write hook error: WRITE-DENY',
      'error|PreToolUse:Edit hook error: EDIT-BLOCK',
      'error|PreToolUse:Read hook error: [cat > /dev/null; echo READ-EXIT2 >&2; exit 2]: READ-EXIT2\n',
      'error|PreToolUse:Glob hook error: GLOB-DENY',
    ]);
    expect(fs.existsSync(path.join(dir, 'w.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'e.txt'), 'utf8')).toBe('abc\n');
  });
});

describe('JSON on exit 2', () => {
  it('a refusal in the JSON is the refusal: its reason, not stderr, is what the model reads', () => {
    const exit2 = (value: unknown) => `${print(value)}; echo STDERR-TEXT >&2; exit 2`;
    expect(
      run('PreToolUse', exit2(deny({ permissionDecisionReason: 'JSON-DENY' })), bashCall('true')).texts,
    ).toContain('error|PreToolUse:Bash hook error: JSON-DENY');
    expect(
      run('PostToolUse', exit2({ decision: 'block', reason: 'JSON-BLOCK' }), bashCall('true')).texts,
    ).toContain(`PostToolUse:Bash hook blocking error from command: "${HOOK}": JSON-BLOCK`);
    expect(
      run('UserPromptSubmit', exit2({ decision: 'block', reason: 'UPS-BLOCK' }), [
        [{ type: 'text', text: 'done' }],
      ]).json.result,
    ).toBe('UserPromptSubmit operation blocked by hook:\nUPS-BLOCK\n\nOriginal prompt: go');
  });

  it('an allow in the JSON does not lift the exit code: stderr blocks', () => {
    const allow = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'touch rewritten' },
      },
    };
    const { dir, texts } = run(
      'PreToolUse',
      `${print(allow)}; echo STDERR-TEXT >&2; exit 2`,
      bashCall('touch canary'),
    );
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'rewritten'))).toBe(false);
    expect(texts).toContain(`error|PreToolUse:Bash hook error: [${HOOK}]: STDERR-TEXT\n`);
  });
});

describe('PostToolUseFailure blocks', () => {
  const failing = [
    [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'exit 3' } }],
    [{ type: 'text', text: 'done' }],
  ];

  it('a JSON block and an exit 2 reach the model as blocking errors next to the failed result', () => {
    expect(
      run('PostToolUseFailure', print({ decision: 'block', reason: 'FAILURE-BLOCK' }), failing).texts,
    ).toContain(`PostToolUseFailure:Bash hook blocking error from command: "${HOOK}": FAILURE-BLOCK`);
    expect(run('PostToolUseFailure', 'echo FAILURE-STDERR >&2; exit 2', failing).texts).toContain(
      `PostToolUseFailure:Bash hook blocking error from command: "${HOOK}": [${HOOK}]: FAILURE-STDERR\n`,
    );
  });
});

describe('the legacy decision "approve" outside PreToolUse', () => {
  it('is accepted, so the rest of the answer still counts', () => {
    const answer = {
      decision: 'approve',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'STILL-COUNTS' },
    };
    const { texts, stderr } = run('PostToolUse', print(answer), bashCall('true'));
    expect(texts).toContain('PostToolUse:Bash hook additional context: STILL-COUNTS');
    expect(stderr).not.toContain('decision');
  });
});

describe('Stop context next to a block', () => {
  it('joins the blocking error in one system message; without a block it stays a user reminder', () => {
    const answer = {
      decision: 'block',
      reason: 'KEEP-GOING',
      hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'STOP-CONTEXT' },
    };
    const turns = [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]];
    const blocked = run(
      'Stop',
      `[ -f "$CLAUDE_PROJECT_DIR/once" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/once"; ${print(answer)}`,
      turns,
    );
    expect(blocked.texts).toContain('Stop hook feedback:\nKEEP-GOING');
    expect(blocked.texts).toContain(
      `Stop hook blocking error from command: "${HOOK}": KEEP-GOING\n\nStop hook additional context: STOP-CONTEXT`,
    );
    const alone = run(
      'Stop',
      `[ -f "$CLAUDE_PROJECT_DIR/once" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/once"; ${print({ hookSpecificOutput: answer.hookSpecificOutput })}`,
      turns,
    );
    expect(alone.texts).toContain(
      '<system-reminder>\nStop hook additional context: STOP-CONTEXT\n</system-reminder>',
    );
  });
});

describe('continue: false on tool events and Stop', () => {
  const twoCalls = [
    [
      { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'touch one' } },
      { type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'touch two' } },
    ],
    [{ type: 'text', text: 'done' }],
  ];
  const onFirst = (value: unknown) => `IN=$(cat); case "$IN" in *toolu_01*) ${print(value)};; esac`;

  it.each(['PreToolUse', 'PostToolUse'])(
    'from %s, the rest of the batch still runs, then the run ends without asking the model again',
    (event) => {
      const dir = tempProject();
      writeJson(dir, 'settings.json', {
        permissions: { allow: ['Bash'] },
        hooks: {
          [event]: [
            { hooks: [{ type: 'command', command: onFirst({ continue: false, stopReason: 'ENOUGH' }) }] },
          ],
          PostToolBatch: [
            {
              hooks: [{ type: 'command', command: 'cat > /dev/null; touch "$CLAUDE_PROJECT_DIR/batch-ran"' }],
            },
          ],
        },
      });
      writeJson(dir, 'turns.json', twoCalls);
      const result = runCli(
        [
          '-p',
          'go',
          '--settings',
          'settings.json',
          '--model-script',
          'turns.json',
          '--output-format',
          'json',
        ],
        dir,
      );
      expect(JSON.parse(result.stdout)).toMatchObject({ result: '', terminal_reason: 'hook_stopped' });
      expect(fs.existsSync(path.join(dir, 'one')), event).toBe(true);
      expect(fs.existsSync(path.join(dir, 'two')), event).toBe(true);
      expect(fs.existsSync(path.join(dir, 'batch-ran')), event).toBe(false);
    },
  );

  it('from PostToolUseFailure it is ignored: the run goes on', () => {
    const failing = [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'exit 4' } }],
      [{ type: 'text', text: 'went on' }],
    ];
    expect(run('PostToolUseFailure', print({ continue: false }), failing).json).toMatchObject({
      result: 'went on',
      terminal_reason: 'completed',
    });
  });

  it("from Stop, the run ends with terminal_reason stop_hook_prevented (result '' when it came with a block)", () => {
    const turns = [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]];
    expect(run('Stop', print({ continue: false }), turns).json).toMatchObject({
      result: 'first',
      terminal_reason: 'stop_hook_prevented',
    });
    expect(run('Stop', print({ continue: false, decision: 'block', reason: 'B' }), turns).json).toMatchObject(
      { result: '', terminal_reason: 'stop_hook_prevented' },
    );
  });
});

describe('continue: false on UserPromptSubmit', () => {
  it("ends the run before the model is asked, with Claude Code's result text", () => {
    const withReason = run(
      'UserPromptSubmit',
      print({ continue: false, stopReason: 'QUOTA' }),
      bashCall('touch canary'),
    );
    expect(withReason.json).toMatchObject({
      result: 'Operation stopped by hook: QUOTA',
      is_error: false,
      num_turns: 0,
    });
    expect(withReason.requests).toBe(0);
    expect(fs.existsSync(path.join(withReason.dir, 'canary'))).toBe(false);
    expect(run('UserPromptSubmit', print({ continue: false }), bashCall('true')).json.result).toBe(
      'Operation stopped by hook',
    );
  });
});
