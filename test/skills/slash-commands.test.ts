import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// What the model sees for `/name args`, as Claude Code 2.1.328 sends it (measured through the mock
// model's recorded requests: scenarios cmd-expansion, cmd-namespaced, cmd-user-plain, cmd-skill-slash,
// cmd-hooks, user-prompt-expansion).

interface Request {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

function run(dir: string, prompt: string, turns: unknown[] = [], settings?: unknown) {
  writeJson(dir, 't.json', [...turns, [text('done')]]);
  const requests = path.join(dir, 'requests.jsonl');
  fs.rmSync(requests, { force: true });
  const args = ['-p', prompt, '--model-script', 't.json', '--record-requests', requests];
  if (settings !== undefined) args.push('--settings', writeJson(dir, 's.json', settings));
  const result = runCli(args, dir);
  const sent = fs.existsSync(requests)
    ? fs
        .readFileSync(requests, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Request)
    : [];
  return { ...result, sent };
}

/** The user texts of the first request, in order. */
function firstUserTexts(sent: readonly Request[]): string[] {
  return (sent[0]?.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.filter((block) => block.type === 'text').map((block) => block.text ?? ''),
    );
}

const markup = (name: string, args?: string) =>
  `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n${args === undefined ? '' : `<command-args>${args}</command-args>\n`}`;

describe('slash commands in -p', () => {
  it('a project command: the markup, then the body with $ARGUMENTS and $0-based words; a missing word stays as written', () => {
    const dir = tempProject({
      '.claude/commands/rel.md':
        '---\ndescription: Release notes\nargument-hint: <version>\n---\nVersion $0, then $1 of $ARGUMENTS.\nSecond: $2\n',
    });
    const { status, sent } = run(dir, '/rel 2.0.0 extra');
    expect(status).toBe(0);
    expect(firstUserTexts(sent)).toEqual([
      markup('rel', '2.0.0 extra'),
      'Version 2.0.0, then extra of 2.0.0 extra.\nSecond: $2\n',
    ]);
  });

  it('a command in a subfolder is namespaced; a user command without placeholders gets ARGUMENTS appended', () => {
    const dir = tempProject({
      '.claude/commands/ns/sub.md': 'Sub command $ARGUMENTS\n',
      '.test-home/.claude/commands/mine.md': 'Mine without placeholders.\n',
    });
    expect(firstUserTexts(run(dir, '/ns:sub hello world').sent)).toEqual([
      markup('ns:sub', 'hello world'),
      'Sub command hello world\n',
    ]);
    expect(firstUserTexts(run(dir, '/mine a b').sent)).toEqual([
      markup('mine', 'a b'),
      'Mine without placeholders.\n\n\nARGUMENTS: a b',
    ]);
  });

  it('a skill invoked as /name starts with its base directory; no arguments, no <command-args>', () => {
    const dir = tempProject({
      '.claude/skills/guard/SKILL.md': '---\nname: guard\ndescription: Guards\n---\nSkill body\n',
    });
    expect(firstUserTexts(run(dir, '/guard').sent)).toEqual([
      markup('guard'),
      `Base directory for this skill: ${path.join(dir, '.claude/skills/guard')}\n\nSkill body\n`,
    ]);
  });

  it('a prompt naming no command is sent as typed', () => {
    const dir = tempProject();
    expect(firstUserTexts(run(dir, '/nosuch a b').sent)).toEqual(['/nosuch a b']);
  });

  it("UserPromptExpansion fires after UserPromptSubmit with Claude Code's payload; its context reaches the model; a block stops the prompt", () => {
    const dir = tempProject({ '.claude/commands/greet.md': 'Say hello to $ARGUMENTS.\n' });
    const log = {
      type: 'command',
      command: 'cat >> "$CLAUDE_PROJECT_DIR/events.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/events.jsonl"',
    };
    const context = {
      type: 'command',
      command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"EXPANSION-CTX"}}'`,
    };
    const settings = {
      hooks: {
        UserPromptSubmit: [{ hooks: [log] }],
        UserPromptExpansion: [{ matcher: 'greet', hooks: [log, context] }],
      },
    };
    const { status, sent } = run(dir, '/greet world', [], settings);
    expect(status).toBe(0);
    const events = fs
      .readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((event) => event['hook_event_name'])).toEqual([
      'UserPromptSubmit',
      'UserPromptExpansion',
    ]);
    expect(events[1]).toMatchObject({
      expansion_type: 'slash_command',
      command_name: 'greet',
      command_args: 'world',
      command_source: 'projectSettings',
      prompt: '/greet world',
      permission_mode: 'default',
    });
    expect(JSON.stringify(sent[0])).toContain('UserPromptExpansion hook additional context: EXPANSION-CTX');

    const blocker = { type: 'command', command: `echo '{"decision":"block","reason":"no greetings today"}'` };
    const blocked = run(dir, '/greet world', [], { hooks: { UserPromptExpansion: [{ hooks: [blocker] }] } });
    expect(blocked.status).toBe(0);
    expect(blocked.sent).toEqual([]);
    expect(blocked.stdout).toContain('no greetings today');
  });

  it("a command's front-matter hooks guard the rest of the session once it is expanded", () => {
    const dir = tempProject({
      '.claude/commands/careful.md':
        '---\nhooks:\n  PreToolUse:\n    - matcher: Write\n      hooks:\n        - type: command\n          command: "echo no writes while careful >&2; exit 2"\n---\nBe careful. $ARGUMENTS\n',
    });
    const write = [[toolUse('toolu_1', 'Write', { file_path: 'out.txt', content: 'x' })]];
    expect(run(dir, '/careful now', write, { permissions: { allow: ['Write'] } }).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
    // The same Write without the command runs.
    expect(run(dir, 'write it', write, { permissions: { allow: ['Write'] } }).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('x');
  });
});
