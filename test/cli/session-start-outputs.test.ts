import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// SessionStart outputs as Claude Code 2.1.328 honours them in -p runs (conformance session-start-outputs).

function project(hookScript: string, turns: unknown[]): string {
  const dir = tempProject({ '.claude/hooks/ss.sh': hookScript });
  fs.chmodSync(path.join(dir, '.claude/hooks/ss.sh'), 0o755);
  writeJson(dir, 'turns.json', turns);
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash'] },
    hooks: {
      SessionStart: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/ss.sh' }] }],
    },
  });
  return dir;
}

describe('SessionStart', () => {
  it('export lines a hook appends to $CLAUDE_ENV_FILE reach later Bash calls', () => {
    const dir = project(
      `#!/bin/sh\ncat > /dev/null\necho "$CLAUDE_ENV_FILE" > envfile-path.txt\necho 'export FROM_ENV_FILE="env file value"' >> "$CLAUDE_ENV_FILE"\n`,
      [
        [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo "var=$FROM_ENV_FILE"' } }],
        [{ type: 'text', text: 'done' }],
      ],
    );
    const run = runCli(
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
    expect(run.status).toBe(0);
    const envFile = fs.readFileSync(path.join(dir, 'envfile-path.txt'), 'utf8').trim();
    expect(envFile).toMatch(
      new RegExp(
        `^${path.join(dir, '.test-home')}/\\.claude/session-env/[0-9a-f-]+/sessionstart-hook-0\\.sh$`,
      ),
    );
    const requests = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: { content: unknown }[] });
    expect(JSON.stringify(requests[1]!.messages.at(-1))).toContain('var=env file value');
  });
});

describe('SessionStart initialUserMessage and sessionTitle', () => {
  const hook = `#!/bin/sh\ncat > /dev/null\nprintf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"SessionStart","initialUserMessage":"INITIAL","sessionTitle":"TITLE"}}'\n`;
  const settingsWithRecorder = (dir: string) =>
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/ss.sh' }] },
        ],
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: 'cat >> "$CLAUDE_PROJECT_DIR"/ups.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/ups.jsonl',
              },
            ],
          },
        ],
      },
    });
  const readJsonLines = (file: string) =>
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('the initial message is the first user turn; the -p prompt arrives after the first tool batch, each through UserPromptSubmit with session_title', () => {
    const dir = project(hook, [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo hi' } }],
      [{ type: 'text', text: 'first done' }],
    ]);
    settingsWithRecorder(dir);
    const run = runCli(
      [
        '-p',
        'PROMPT',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'first done', num_turns: 2 });
    expect(
      readJsonLines(path.join(dir, 'ups.jsonl')).map((input) => [input['prompt'], input['session_title']]),
    ).toEqual([
      ['INITIAL', 'TITLE'],
      ['PROMPT', 'TITLE'],
    ]);
    const requests = readJsonLines(path.join(dir, 'requests.jsonl')) as {
      messages: { role: string; content: unknown }[];
    }[];
    expect(requests[0]!.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'INITIAL' }] }]);
    expect(requests[1]!.messages.at(-1)).toEqual({
      role: 'system',
      content: 'The user sent a new message while you were working:\nPROMPT',
    });
  });

  it('when the model stops before any tool call, the queued prompt is the next user turn', () => {
    const dir = project(hook, [[{ type: 'text', text: 'hello' }], [{ type: 'text', text: 'answered' }]]);
    settingsWithRecorder(dir);
    const run = runCli(
      [
        '-p',
        'PROMPT',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'answered', num_turns: 2 });
    const requests = readJsonLines(path.join(dir, 'requests.jsonl')) as {
      messages: { role: string; content: unknown }[];
    }[];
    expect(requests[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'PROMPT' }],
    });
  });
});
