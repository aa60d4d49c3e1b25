import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text } from '../support/scripted-run.js';

// A command file's !`cmd` spans and @path mentions, as Claude Code 2.1.328 handles them (measured:
// scenarios cmd-shell-*, cmd-at-*, prompt-at-file): the spans run under the permission policy before
// the prompt is sent, no hook sees them; mentioned files travel ahead of the prompt as Read results.

interface Request {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

function run(dir: string, prompt: string, settings: unknown = {}) {
  writeJson(dir, 't.json', [[text('done')]]);
  const requests = path.join(dir, 'requests.jsonl');
  fs.rmSync(requests, { force: true });
  const args = ['-p', prompt, '--model-script', 't.json', '--record-requests', requests];
  args.push('--settings', writeJson(dir, 's.json', settings), '--output-format', 'json');
  const result = runCli(args, dir);
  const sent = fs.existsSync(requests)
    ? fs
        .readFileSync(requests, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Request)
    : [];
  const output = JSON.parse(result.stdout) as { result: string; num_turns: number; is_error: boolean };
  return { ...result, output, sent };
}

/** The user texts of the first request, in order. */
function userTexts(sent: readonly Request[]): string[] {
  return (sent[0]?.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.filter((block) => block.type === 'text').map((block) => block.text ?? ''),
    );
}

const reminder = (body: string) => `<system-reminder>\n${body}\n</system-reminder>`;
const markup = (name: string) =>
  `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n`;

describe('!`cmd` spans of a command file', () => {
  it("run before the prompt under the file's allowed-tools; each output replaces its span", () => {
    const dir = tempProject({
      '.claude/commands/sh.md':
        '---\nallowed-tools: Bash(echo:*), Bash(printf:*)\n---\nA: !`echo alpha`\nB: !`printf "l1\\nl2\\n"`\nC: !`echo err >&2`\nEnd.\n',
    });
    const { status, sent } = run(dir, '/sh');
    expect(status).toBe(0);
    expect(userTexts(sent)).toEqual([markup('sh'), 'A: alpha\nB: l1\nl2\nC: err\nEnd.\n']);
  });

  it('a span the policy would ask about ends the run before any model call, and nothing runs', () => {
    const dir = tempProject({ '.claude/commands/mk.md': 'Make: !`touch made.txt`\nEnd.\n' });
    const { status, output, sent } = run(dir, '/mk');
    expect(status).toBe(0);
    expect(sent).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'made.txt'))).toBe(false);
    expect(output.result).toMatch(
      /^Shell command permission check failed for pattern "!`touch made\.txt`": touch in '.*made\.txt' needs approval/,
    );
    expect(output.num_turns).toBe(0);
  });

  it("the settings' allow rules approve a span; a deny rule refuses it even when allowed-tools names it", () => {
    const allowed = tempProject({ '.claude/commands/mk.md': 'Make: !`touch made.txt`\nEnd.\n' });
    const ran = run(allowed, '/mk', { permissions: { allow: ['Bash(touch:*)'] } });
    expect(userTexts(ran.sent)).toEqual([markup('mk'), 'Make: (Bash completed with no output)\nEnd.\n']);
    expect(fs.existsSync(path.join(allowed, 'made.txt'))).toBe(true);

    const denied = tempProject({
      '.claude/commands/mk.md': '---\nallowed-tools: Bash(touch:*)\n---\nMake: !`touch made.txt`\n',
    });
    const refused = run(denied, '/mk', { permissions: { deny: ['Bash(touch:*)'] } });
    expect(refused.sent).toEqual([]);
    expect(fs.existsSync(path.join(denied, 'made.txt'))).toBe(false);
    expect(refused.output.result).toContain('Shell command permission check failed for pattern');
  });

  it('no PreToolUse hook sees a span, and a failing span ends the run with its error output', () => {
    const dir = tempProject({
      '.claude/commands/f.md': '---\nallowed-tools: Bash(ls:*), Bash(echo:*)\n---\nA: !`echo ok`\n',
      '.claude/commands/g.md': '---\nallowed-tools: Bash(ls:*)\n---\nB: !`ls missing-dir`\n',
    });
    const refuseAll = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] } };
    expect(userTexts(run(dir, '/f', refuseAll).sent)).toEqual([markup('f'), 'A: ok\n']);
    const failed = run(dir, '/g');
    expect(failed.sent).toEqual([]);
    expect(failed.output.result).toMatch(
      /^Shell command failed for pattern "!`ls missing-dir`": \[stderr\]\nls: cannot access 'missing-dir'/,
    );
  });
});

describe('@path mentions', () => {
  it('files and folders of a command body travel ahead of it as Read and ls results; missing ones are left out', () => {
    const dir = tempProject({
      'notes.txt': 'N1\nN2\n',
      'sub/b.md': 'B-CONTENT\n',
      '.claude/commands/at.md': 'See @notes.txt and @sub/b.md, also @missing.txt and @sub/ here.\n',
    });
    const { status, sent } = run(dir, '/at');
    expect(status).toBe(0);
    const sub = path.join(dir, 'sub');
    expect(userTexts(sent)).toEqual([
      reminder(
        `Called the Read tool with the following input: {"file_path":"${path.join(dir, 'notes.txt')}"}`,
      ),
      `${reminder('Result of calling the Read tool:\n1\tN1\n2\tN2\n3\t')}\n`,
      `${reminder(`Called the Read tool with the following input: {"file_path":"${path.join(sub, 'b.md')}"}`)}\n`,
      `${reminder('Result of calling the Read tool:\n1\tB-CONTENT\n2\t')}\n`,
      `${reminder(`Called the Bash tool with the following input: {"command":"ls ${sub}","description":"Lists files in ${sub}"}`)}\n`,
      reminder('Result of calling the Bash tool:\nb.md'),
      markup('at'),
      'See @notes.txt and @sub/b.md, also @missing.txt and @sub/ here.\n',
    ]);
  });

  it('a file a deny rule covers is not read; a plain prompt brings its mentions too', () => {
    const dir = tempProject({ 'secret.txt': 'SECRET\n', 'ok.txt': 'OK\n' });
    const { sent } = run(dir, 'compare @secret.txt with @ok.txt', {
      permissions: { deny: ['Read(./secret.txt)'] },
    });
    const texts = userTexts(sent);
    expect(texts.join('\n')).not.toContain('SECRET');
    expect(texts).toEqual([
      reminder(`Called the Read tool with the following input: {"file_path":"${path.join(dir, 'ok.txt')}"}`),
      reminder('Result of calling the Read tool:\n1\tOK\n2\t'),
      'compare @secret.txt with @ok.txt',
    ]);
  });

  it('a file outside the working directories is not read', () => {
    const outside = tempProject({ 'private.txt': 'PRIVATE\n' });
    const dir = tempProject();
    const { sent } = run(dir, `look at @${path.join(outside, 'private.txt')}`);
    expect(userTexts(sent).join('\n')).not.toContain('PRIVATE');
  });
});
