/**
 * What a model is sent through the CLI: hookloop's system prompt (tools, mode, refusals,
 * environment), the memory files before the first prompt in Claude Code's order and wording
 * (measured against Claude Code 2.1.328, scenario memory-files), and the four system-prompt flags.
 * Seen through `--record-requests`, the request log a user would read.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';

interface LoggedRequest {
  system: string;
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

function project(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-prompt-')));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** Runs `-p go` with a one-turn scripted model and returns the first logged request and the run. */
function firstRequest(dir: string, args: readonly string[] = []) {
  const script = writeJson(dir, '.turns.json', [[{ type: 'text', text: 'done' }]]);
  const log = path.join(dir, '.requests.jsonl');
  const run = runCli(['-p', 'go', '--model-script', script, '--record-requests', log, ...args], dir);
  const request = fs.existsSync(log)
    ? (JSON.parse(fs.readFileSync(log, 'utf8').split('\n')[0]!) as LoggedRequest)
    : undefined;
  return { run, request };
}

function texts(request: LoggedRequest): string[] {
  return request.messages.flatMap((message) =>
    typeof message.content === 'string'
      ? [message.content]
      : message.content.map((block) => block.text ?? ''),
  );
}

describe('the system prompt', () => {
  it('tells the model its tools, the permission mode, how to treat refusals and where it works (git status included)', () => {
    const dir = project({ 'README.md': 'hi\n' });
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'first commit'],
      { cwd: dir },
    );
    const { run, request } = firstRequest(dir, ['--permission-mode', 'acceptEdits']);
    expect(run.status, run.stderr).toBe(0);
    const system = request!.system;
    expect(system).toContain('You are a coding agent running inside hookloop');
    expect(system).toMatch(/^- Read reads a file/m);
    expect(system).toMatch(/^- Bash runs a shell command/m);
    expect(system).toContain('The permission mode is acceptEdits');
    expect(system).toContain('Do not send the same call again unchanged');
    expect(system).toContain(`- Working directory: ${dir}`);
    expect(system).toContain('- Git repository: yes (branch trunk)');
    expect(system).toMatch(/- Git status at the start of the session: .*\?\? README\.md/);
    expect(system).toMatch(/- Recent commits: [0-9a-f]+ first commit/);
    expect(system).toMatch(/- Today's date: \d{4}-\d{2}-\d{2}/);
  });

  it('outside a repository says so, and --dangerously-skip-permissions is bypassPermissions', () => {
    const dir = project({});
    const { run, request } = firstRequest(dir, ['--dangerously-skip-permissions']);
    expect(run.status, run.stderr).toBe(0);
    expect(request!.system).toContain('- Git repository: no');
    expect(request!.system).toContain('The permission mode is bypassPermissions');
  });

  it('--system-prompt replaces it and --append-system-prompt adds after a blank line; the memory still comes with the prompt', () => {
    const dir = project({ 'CLAUDE.md': 'PROJECT-MEMORY\n' });
    const { run, request } = firstRequest(dir, [
      '--system-prompt',
      'REPLACED',
      '--append-system-prompt',
      'APPENDED',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(request!.system).toBe('REPLACED\n\nAPPENDED');
    expect(texts(request!).join('\n')).toContain('PROJECT-MEMORY');
  });

  it('the -file forms read the files as they are; a missing file is one line naming it, and text + file of one flag is refused', () => {
    const dir = project({ 'sp.txt': 'FROM-FILE\n', 'ap.txt': 'APPENDED-FILE\n' });
    expect(
      firstRequest(dir, ['--system-prompt-file', 'sp.txt', '--append-system-prompt-file', 'ap.txt']).request!
        .system,
    ).toBe('FROM-FILE\n\n\nAPPENDED-FILE\n');
    const missing = firstRequest(dir, ['--system-prompt-file', 'nope.txt']).run;
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(
      /^hookloop: --system-prompt-file nope\.txt: cannot read it: .*ENOENT/,
    );
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const both = firstRequest(dir, ['--system-prompt', 'x', '--system-prompt-file', 'sp.txt']).run;
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--system-prompt and --system-prompt-file cannot be combined');
  });
});

describe('memory files', () => {
  it('reach the model before the first prompt in Claude Code order: user, user rules, project root down, rules, local; imports follow their file', () => {
    const dir = project({
      'CLAUDE.md': 'ROOT-MEMORY see @docs/guide.md and `@docs/not-this.md`\n```\n@docs/nor-this.md\n```\n',
      'docs/guide.md': 'GUIDE @deeper.md\n',
      'docs/deeper.md': 'DEEPER\n',
      'docs/not-this.md': 'IN-CODE-SPAN\n',
      'docs/nor-this.md': 'IN-CODE-BLOCK\n',
      '.claude/CLAUDE.md': 'DOT-CLAUDE\n',
      '.claude/rules/style.md': 'RULE-STYLE\n',
      '.claude/rules/scoped.md': '---\npaths:\n  - "src/**/*.ts"\n---\nRULE-SCOPED\n',
      'CLAUDE.local.md': 'LOCAL\n',
      '.test-home/.claude/CLAUDE.md': 'USER-MEMORY\n',
      '.test-home/.claude/rules/mine.md': 'USER-RULE\n',
    });
    const { run, request } = firstRequest(dir);
    expect(run.status, run.stderr).toBe(0);
    const [memory, prompt] = texts(request!);
    expect(prompt).toBe('go');
    const order = [...memory!.matchAll(/^Contents of (.+) \((.+)\):$/gm)].map((match) => [
      path.relative(dir, match[1]!),
      match[2],
    ]);
    expect(order).toEqual([
      ['.test-home/.claude/CLAUDE.md', "user's private global instructions for all projects"],
      ['.test-home/.claude/rules/mine.md', "user's private global instructions for all projects"],
      ['CLAUDE.md', 'project instructions, checked into the codebase'],
      ['docs/guide.md', 'project instructions, checked into the codebase'],
      ['docs/deeper.md', 'project instructions, checked into the codebase'],
      ['.claude/CLAUDE.md', 'project instructions, checked into the codebase'],
      ['.claude/rules/style.md', 'project instructions, checked into the codebase'],
      ['CLAUDE.local.md', "user's private project instructions, not checked in"],
    ]);
    expect(memory).toMatch(/^<system-reminder>\n[\s\S]*\n<\/system-reminder>$/);
    expect(memory).not.toMatch(/IN-CODE-SPAN|IN-CODE-BLOCK|RULE-SCOPED/);
  });

  it('a session without memory files sends the prompt alone', () => {
    const { request } = firstRequest(project({}));
    expect(texts(request!)).toEqual(['go']);
  });
});

describe('hookloop demo --record-requests', () => {
  it("shows a complete request: the system prompt, the demo project's CLAUDE.md before the prompt, and every tool's definition", () => {
    const dir = project({});
    const run = runCli(['demo', '--record-requests', 'requests.jsonl'], dir);
    expect(run.status, run.stderr).toBe(0);
    const [first] = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as LoggedRequest & {
            tool_definitions: { name: string; description: string; input_schema: object }[];
          },
      );
    expect(first!.system).toContain('# Environment');
    const [memory, prompt] = texts(first!);
    expect(memory).toMatch(
      /Contents of .*\/CLAUDE\.md \(project instructions, checked into the codebase\):\n\n# Notes for agents/,
    );
    expect(prompt).toBe('Fix the greeting typo in src/greet.js and tidy up.');
    expect(first!.tool_definitions.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep']),
    );
    expect(
      first!.tool_definitions.every(
        (tool) => tool.description.length > 0 && typeof tool.input_schema === 'object',
      ),
    ).toBe(true);
  });
});

describe('--fork-session', () => {
  it('continues a saved session under a new id from a copy of its transcript; the original is left as it was', () => {
    const dir = project({});
    const first = '6f1f5f0e-8d4e-4c1a-9a59-1a2b3c4d5e6f';
    const script = writeJson(dir, '.turns.json', [
      [{ type: 'text', text: 'FIRST-ANSWER' }],
      [{ type: 'text', text: 'SECOND-ANSWER' }],
    ]);
    expect(runCli(['-p', 'one', '--model-script', script, '--session-id', first], dir).status).toBe(0);
    const sessions = path.join(dir, '.test-home', '.claude', 'projects');
    const [slug] = fs.readdirSync(sessions);
    const original = path.join(sessions, slug!, `${first}.jsonl`);
    const before = fs.readFileSync(original, 'utf8');
    const script2 = writeJson(dir, '.turns2.json', [[{ type: 'text', text: 'FORKED-ANSWER' }]]);
    const forked = runCli(
      [
        '-p',
        'two',
        '--model-script',
        script2,
        '--resume',
        first,
        '--fork-session',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(forked.status, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as { session_id: string; result: string };
    expect(result.result).toBe('FORKED-ANSWER');
    expect(result.session_id).not.toBe(first);
    expect(fs.readFileSync(original, 'utf8')).toBe(before);
    const copy = fs.readFileSync(path.join(sessions, slug!, `${result.session_id}.jsonl`), 'utf8');
    expect(copy).toContain('FIRST-ANSWER');
    expect(copy).toContain('FORKED-ANSWER');
    expect(copy).not.toContain(first);
  });

  it('without --resume or --continue is one line naming the flag', () => {
    const run = runCli(['-p', 'x', '--fork-session'], project({}));
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      'hookloop: --fork-session: forks a saved session; name it with --resume ID or --continue',
    );
  });
});

describe('flag values', () => {
  it.each([
    [
      ['--max-budget-usd', 'lots'],
      'hookloop: --max-budget-usd: expected a positive number of dollars, e.g. 0.50, got "lots"',
    ],
    [
      ['--max-budget-usd', '0'],
      'hookloop: --max-budget-usd: expected a positive number of dollars, e.g. 0.50, got "0"',
    ],
    [
      ['--append-system-prompt', 'a', '--append-system-prompt-file', 'b'],
      'hookloop: --append-system-prompt and --append-system-prompt-file cannot be combined: give the text or a file',
    ],
  ])('%j is refused with one line', (args, line) => {
    const run = runCli(['-p', 'x', ...args], project({}));
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(line);
  });

  it('--fallback-model on the scripted model warns that there is nothing to switch to, and the run goes on', () => {
    const dir = project({});
    const { run } = firstRequest(dir, ['--fallback-model', 'claude-haiku-4-5']);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      '--fallback-model ignored: a scripted model has no other model to switch to',
    );
  });
});
