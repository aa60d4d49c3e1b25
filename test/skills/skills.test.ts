import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

interface Recorded {
  system: unknown;
  tools: string[];
  messages: {
    role: string;
    content: string | { type: string; text?: string; content?: unknown; tool_use_id?: string }[];
  }[];
}

function requestsOf(dir: string): Recorded[] {
  return fs
    .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Recorded);
}

const textOf = (request: Recorded) => JSON.stringify(request.messages);

describe('hookloop CLI: skills', () => {
  // oh-my-claudecode's ralph loop starts with a Skill call; under hookloop it must load, not be "No such tool available".
  it("a plugin's skill: listed with the first prompt, a Skill call loads its SKILL.md after `Launching skill:`, and hooks match Skill", () => {
    const dir = tempProject({
      'plugin/.claude-plugin/plugin.json': JSON.stringify({ name: 'omc' }),
      'plugin/skills/ralph/SKILL.md':
        '---\nname: ralph\ndescription: Keep working until the task is done\nallowed-tools: Read, Bash(git *)\n---\n# Ralph\nRALPH-INSTRUCTIONS for $ARGUMENTS in ${CLAUDE_SKILL_DIR}\n',
    });
    writeJson(dir, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Skill',
            hooks: [
              {
                type: 'command',
                command:
                  'cat >> "$CLAUDE_PROJECT_DIR/skill-hook.log"; echo >> "$CLAUDE_PROJECT_DIR/skill-hook.log"',
              },
            ],
          },
        ],
      },
    });
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Skill', input: { skill: 'omc:ralph', args: 'the build' } }],
      [{ type: 'text', text: 'on it' }],
    ]);
    const run = runCli(
      [
        '-p',
        'ralph the build',
        '--plugin-dir',
        'plugin',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
      ],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const [first, second] = requestsOf(dir);
    expect(first!.tools).toContain('Skill');
    expect(textOf(first!)).toContain(
      'The following skills are available for use with the Skill tool:\\n\\n- omc:ralph: Keep working until the task is done',
    );
    const blocks = second!.messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content : [],
    );
    expect(blocks.find((block) => block.type === 'tool_result')).toMatchObject({
      content: 'Launching skill: omc:ralph',
    });
    const skillDir = path.join(fs.realpathSync(dir), 'plugin', 'skills', 'ralph');
    expect(JSON.stringify(second!.messages)).toContain(
      JSON.stringify(
        `Base directory for this skill: ${skillDir}\n\n# Ralph\nRALPH-INSTRUCTIONS for the build in ${skillDir}`,
      ).slice(1, -1),
    );
    const hook = JSON.parse(fs.readFileSync(path.join(dir, 'skill-hook.log'), 'utf8').trim()) as Record<
      string,
      unknown
    >;
    expect(hook).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Skill',
      tool_input: { skill: 'omc:ralph', args: 'the build' },
    });
  });

  it('a PreToolUse deny on Skill keeps the instructions out; an unknown skill is a validation error', () => {
    const dir = tempProject({
      '.claude/skills/deploy/SKILL.md': '---\ndescription: Deploys\n---\nDEPLOY-INSTRUCTIONS\n',
    });
    writeJson(dir, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Skill', hooks: [{ type: 'command', command: 'echo "no deploys" >&2; exit 2' }] },
        ],
      },
    });
    writeJson(dir, 'turns.json', [
      [
        { type: 'tool_use', id: 'toolu_01', name: 'Skill', input: { skill: 'deploy' } },
        { type: 'tool_use', id: 'toolu_02', name: 'Skill', input: { skill: 'nope' } },
      ],
      [{ type: 'text', text: 'ok' }],
    ]);
    const run = runCli(
      ['-p', 'deploy', '--model-script', 'turns.json', '--record-requests', 'requests.jsonl'],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const second = requestsOf(dir)[1]!;
    expect(textOf(second)).not.toContain('DEPLOY-INSTRUCTIONS');
    const results = second.messages
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .filter((block) => block.type === 'tool_result');
    expect(results.map((block) => block.content)).toEqual([
      'PreToolUse:Skill hook error: [echo "no deploys" >&2; exit 2]: no deploys\n',
      '<tool_use_error>Unknown skill: nope</tool_use_error>',
    ]);
  });

  it('a SKILL.md with a bad field is skipped with one line naming the file and the field', () => {
    const dir = tempProject({
      '.claude/skills/bad/SKILL.md':
        '---\ndescription: Bad\ndisable-model-invocation: sometimes\n---\nbody\n',
    });
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'hi' }]]);
    const run = runCli(['-p', 'hi', '--model-script', 'turns.json'], dir);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.includes('SKILL.md'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /\.claude\/skills\/bad\/SKILL\.md: disable-model-invocation: .*got "sometimes"$/,
    );
  });
});
