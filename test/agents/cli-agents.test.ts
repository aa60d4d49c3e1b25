import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

/** The Agent call of the main model's first turn, then the subagent's turns (matched by the task text), then the main model's answer. */
function script(subTurns: unknown[][], type = 'general-purpose') {
  return [
    [
      {
        type: 'tool_use',
        id: 'toolu_01',
        name: 'Agent',
        input: { description: 'sub task', prompt: 'SUBAGENT-TASK: do it', subagent_type: type },
      },
    ],
    ...subTurns.map((content) => ({ match: 'SUBAGENT-TASK', content })),
    [{ type: 'text', text: 'done' }],
  ];
}

describe('hookloop CLI: subagents', () => {
  // The public complaint against Claude Code: "PreToolUse hooks don't fire in subagents".
  it('a PreToolUse deny hook fires inside a subagent: its Bash call is refused, the file is never written, the hook saw agent_id/agent_type', () => {
    const dir = tempProject({
      '.claude/hooks/guard.sh':
        '#!/bin/bash\ninput=$(cat)\nprintf "%s\\n" "$input" >> "$CLAUDE_PROJECT_DIR/guard.log"\nif printf "%s" "$input" | grep -q "touch"; then echo "no writes from here" >&2; exit 2; fi\nexit 0\n',
    });
    fs.chmodSync(path.join(dir, '.claude/hooks/guard.sh'), 0o755);
    writeJson(dir, '.claude/settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }],
          },
        ],
      },
    });
    writeJson(
      dir,
      'turns.json',
      script([
        [{ type: 'tool_use', id: 'toolu_s1', name: 'Bash', input: { command: 'touch from-sub.txt' } }],
        [{ type: 'text', text: 'could not' }],
      ]),
    );
    trustWorkspace(dir);
    const run = runCli(['-p', 'delegate', '--model-script', 'turns.json', '--output-format', 'json'], dir);
    expect(run.status, run.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'from-sub.txt'))).toBe(false);
    const seen = fs
      .readFileSync(path.join(dir, 'guard.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      tool_name: 'Bash',
      agent_type: 'general-purpose',
      tool_input: { command: 'touch from-sub.txt' },
    });
    expect(String(seen[0]!['agent_id'])).toMatch(/^a[0-9a-f]{16}$/);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'done', is_error: false });
  });

  it('loads .claude/agents/*.md: the body is the system prompt, tools limit what it is offered', () => {
    const dir = tempProject({
      '.claude/agents/reviewer.md':
        '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nREVIEWER-SYSTEM-PROMPT\n',
    });
    writeJson(dir, 'turns.json', script([[{ type: 'text', text: 'reviewed' }]], 'reviewer'));
    const run = runCli(
      ['-p', 'review', '--model-script', 'turns.json', '--record-requests', 'requests.jsonl'],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const requests = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { system: unknown; tools: string[] });
    const sub = requests.find((request) =>
      JSON.stringify(request.system).includes('REVIEWER-SYSTEM-PROMPT'),
    )!;
    expect(sub.tools).toEqual(['Read', 'Grep']);
    expect(requests[0]!.tools).toContain('Agent');
  });

  it("an agent's front-matter hooks run for its subagent only; its Stop hook is a SubagentStop hook", () => {
    const dir = tempProject({
      '.claude/agents/careful.md': [
        '---',
        'name: careful',
        'description: Careful worker',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          command: echo "careful agents do not run shells" >&2; exit 2',
        '  Stop:',
        '    - hooks:',
        '        - type: command',
        '          command: cat >> "$CLAUDE_PROJECT_DIR/stop.log"; echo >> "$CLAUDE_PROJECT_DIR/stop.log"',
        '---',
        'CAREFUL-PROMPT',
        '',
      ].join('\n'),
    });
    writeJson(dir, '.claude/settings.json', { permissions: { allow: ['Bash'] } });
    const turns = [
      [
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'Agent',
          input: { description: 'careful', prompt: 'SUBAGENT-TASK', subagent_type: 'careful' },
        },
      ],
      {
        match: 'SUBAGENT-TASK',
        content: [{ type: 'tool_use', id: 'toolu_s1', name: 'Bash', input: { command: 'touch sub.txt' } }],
      },
      { match: 'SUBAGENT-TASK', content: [{ type: 'text', text: 'refused' }] },
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'touch main.txt' } }],
      [{ type: 'text', text: 'done' }],
    ];
    writeJson(dir, 'turns.json', turns);
    trustWorkspace(dir);
    const run = runCli(['-p', 'go', '--model-script', 'turns.json'], dir);
    expect(run.status, run.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'sub.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'main.txt'))).toBe(true);
    const stops = fs
      .readFileSync(path.join(dir, 'stop.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      stops.map((stop) => [stop['hook_event_name'], stop['agent_type'], stop['last_assistant_message']]),
    ).toEqual([['SubagentStop', 'careful', 'refused']]);
  });

  it('an agent file with a bad field is skipped with one line naming the file and the field', () => {
    const dir = tempProject({
      '.claude/agents/broken.md': '---\ndescription: Broken\npermissionMode: yolo\n---\nprompt\n',
    });
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'hi' }]]);
    const run = runCli(['-p', 'hi', '--model-script', 'turns.json'], dir);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.includes('broken.md'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^hookloop: warning: .*\.claude\/agents\/broken\.md: permissionMode: one of .*"plan".*, got "yolo"$/,
    );
  });

  it('--agents with a bad value exits 2 with one line naming the flag and the field', () => {
    const dir = tempProject();
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'hi' }]]);
    const run = runCli(
      [
        '-p',
        'hi',
        '--model-script',
        'turns.json',
        '--agents',
        '{"checker": {"description": "checks", "prompt": "p", "tools": 5}}',
      ],
      dir,
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--agents: checker: tools: .*got 5/);
  });
});
