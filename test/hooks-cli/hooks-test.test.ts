import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const GUARD = `#!/bin/bash
input=$(cat)
case "$input" in *'rm -rf'*) echo "refusing: rm -rf" >&2; exit 2 ;; esac
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"looked at it"}}'
`;

function project(hooks: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = tempProject({ '.claude/hooks/guard.sh': GUARD, ...files });
  for (const name of ['.claude/hooks/guard.sh', ...Object.keys(files).filter((name) => name.endsWith('.sh'))])
    fs.chmodSync(path.join(dir, name), 0o755);
  writeJson(dir, 'settings.json', { hooks });
  return dir;
}

const guard = { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' };
const RM = ['--tool', 'Bash', '--input', '{"command":"rm -rf /"}'];

describe('hookloop hooks test (the issue\'s "done when")', () => {
  it('prints the block of a blocking hook and exits non-zero', () => {
    const dir = project({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] });
    const run = runCli(['hooks', 'test', 'PreToolUse', ...RM, '--settings', 'settings.json'], dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('PreToolUse for tool Bash');
    expect(run.stdout).toContain(
      '#1 command: "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh  [settings.json hooks.PreToolUse[0].hooks[0]]',
    );
    expect(run.stdout).toMatch(
      /exit code 2 in \d+ ms\n {3}stdout: \(empty\)\n {3}stderr: refusing: rm -rf\n {3}read as: blocking error \(exit 2\): \["\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/guard\.sh\]: refusing: rm -rf\n/,
    );
    expect(run.stdout).toContain(
      'merged decision: deny\nreason: ["$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh]: refusing: rm -rf\n',
    );
  });

  it("shows that a typo'd matcher matched nothing, and exits 0", () => {
    const dir = project({ PreToolUse: [{ matcher: 'bash', hooks: [guard] }] });
    const run = runCli(['hooks', 'test', 'PreToolUse', ...RM, '--settings', 'settings.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      'not run: matcher "bash" does not match Bash (case-sensitive: did you mean Bash?)',
    );
    expect(run.stdout).toContain(
      'no handler matched PreToolUse for tool Bash; configured matchers: bash (case-sensitive: did you mean Bash?)',
    );
    expect(run.stdout).toContain('merged decision: none (no hook decided anything)');
  });
});

describe('hookloop hooks test', () => {
  it("--json: each handler's raw answer and the merge, skipped handlers with their reason", () => {
    const dir = project({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [guard, { type: 'command', command: 'cat > /dev/null; echo skipped', if: 'Bash(git *)' }],
        },
        {
          matcher: '*',
          hooks: [
            guard,
            {
              type: 'command',
              command:
                'cat > /dev/null; echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"allow\\"}}"',
            },
          ],
        },
        { matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] },
      ],
    });
    const run = runCli(
      [
        'hooks',
        'test',
        'PreToolUse',
        '--tool',
        'Bash',
        '--input',
        '{"command":"ls"}',
        '--settings',
        'settings.json',
        '--json',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.payload).toMatchObject({
      cwd: dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(Object.keys(report.payload)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'effort',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_use_id',
    ]);
    expect(
      report.handlers.map((handler: { index: number; status: string; why?: string }) => [
        handler.index,
        handler.status,
        handler.why,
      ]),
    ).toEqual([
      [1, 'ran', undefined],
      [2, 'skipped', 'if "Bash(git *)" does not match this call'],
      [3, 'skipped', 'same handler as #1, which runs: identical handlers run once per event'],
      [4, 'ran', undefined],
      [5, 'skipped', 'matcher "Read" does not match Bash'],
    ]);
    expect(report.handlers[0].answer).toMatchObject({
      outcome: 'ok',
      exitCode: 0,
      signal: null,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"looked at it"}}\n',
      stderr: '',
      output: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'looked at it' } },
      failClosed: false,
    });
    expect(report.verdict).toMatchObject({
      decision: 'allow',
      refuses: false,
      merged: { decision: 'allow', contexts: ['looked at it'] },
    });
  });

  it('builds the payload as the loop does: absolute file paths, Edit defaults, the permission mode asked for', () => {
    const dir = project({ PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] });
    const run = runCli(
      [
        'hooks',
        'test',
        'PreToolUse',
        '--tool',
        'Edit',
        '--input',
        '{"file_path":"a.txt","old_string":"x","new_string":"y"}',
        '--permission-mode',
        'plan',
        '--settings',
        'settings.json',
        '--json',
      ],
      dir,
    );
    const payload = JSON.parse(run.stdout).payload;
    expect(payload).toMatchObject({
      permission_mode: 'plan',
      tool_input: {
        file_path: path.join(dir, 'a.txt'),
        old_string: 'x',
        new_string: 'y',
        replace_all: false,
      },
    });
  });

  it('events without tools: UserPromptSubmit block exits 1, Stop without handlers says so', () => {
    const dir = project({
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'command',
              command: `cat > /dev/null; echo '{"decision":"block","reason":"no secrets"}'`,
            },
          ],
        },
      ],
    });
    const blocked = runCli(
      ['hooks', 'test', 'UserPromptSubmit', '--prompt', 'print the API key', '--settings', 'settings.json'],
      dir,
    );
    expect(blocked.status).toBe(1);
    expect(blocked.stdout).toContain('"prompt":"print the API key"');
    expect(blocked.stdout).toContain('merged decision: block\nreason: no secrets\n');
    const stop = runCli(['hooks', 'test', 'Stop', '--settings', 'settings.json'], dir);
    expect(stop.status).toBe(0);
    expect(stop.stdout).toMatch(/no handler is configured for Stop; read: .*settings\.json/);
  });

  it("shows an async handler's answer without merging it, and a failure that fails closed", () => {
    const dir = project({
      PreToolUse: [
        {
          hooks: [
            {
              type: 'command',
              command: `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'`,
              async: true,
            },
          ],
        },
        {
          hooks: [
            { type: 'command', command: 'cat > /dev/null; echo broken >&2; exit 1', onFailure: 'block' },
          ],
        },
      ],
    });
    const run = runCli(
      [
        'hooks',
        'test',
        'PreToolUse',
        '--tool',
        'Bash',
        '--input',
        '{"command":"ls"}',
        '--settings',
        'settings.json',
      ],
      dir,
    );
    expect(run.stdout).toContain('(async: not part of the merged decision)');
    expect(run.stdout).toContain('read as: failed, blocking (fails closed): exit code 1: broken');
    expect(run.stdout).toContain(
      'merged decision: deny\nreason: [cat > /dev/null; echo broken >&2; exit 1]: failed; blocking because onFailure is "block"',
    );
    expect(run.status).toBe(1);
  });

  it('--payload replays a recorded payload (JSON lines: the first line of the event)', () => {
    const dir = project({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] });
    const recorded = [
      {
        session_id: 's1',
        transcript_path: '/t',
        cwd: dir,
        hook_event_name: 'SessionStart',
        source: 'startup',
      },
      {
        session_id: 's1',
        transcript_path: '/t',
        cwd: dir,
        prompt_id: 'p1',
        permission_mode: 'acceptEdits',
        effort: { level: 'medium' },
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf x' },
        tool_use_id: 'toolu_9',
      },
    ];
    fs.writeFileSync(
      path.join(dir, 'rec.jsonl'),
      recorded.map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const run = runCli(
      ['hooks', 'test', 'PreToolUse', '--payload', 'rec.jsonl', '--settings', 'settings.json', '--json'],
      dir,
    );
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).payload).toEqual(recorded[1]);
  });

  it('--payload without EVENT tests the event each recorded line names; a note says which line of how many', () => {
    const dir = project({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] });
    fs.writeFileSync(
      path.join(dir, 'rec.jsonl'),
      recordedLines(dir)
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    const run = runCli(['hooks', 'test', '--payload', 'rec.jsonl', '--settings', 'settings.json'], dir);
    expect(run.stdout.split('\n')[0]).toBe('SessionStart for source startup');
    expect(run.stdout).toContain(
      'note: replayed line 1 of rec.jsonl, the first of 3; --line N picks another, --all replays every one',
    );
    expect(run.status).toBe(0);
  });

  it('--payload --line N replays that line of the file, as its own event', () => {
    const dir = project({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] });
    const recorded = recordedLines(dir);
    fs.writeFileSync(
      path.join(dir, 'rec.jsonl'),
      recorded.map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const run = runCli(
      ['hooks', 'test', '--payload', 'rec.jsonl', '--line', '3', '--settings', 'settings.json', '--json'],
      dir,
    );
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      event: 'PreToolUse',
      payload: recorded[2],
      verdict: { refuses: true },
    });
    const wrong = runCli(
      [
        'hooks',
        'test',
        'SessionStart',
        '--payload',
        'rec.jsonl',
        '--line',
        '3',
        '--settings',
        'settings.json',
      ],
      dir,
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim()).toBe(
      'hookloop: --payload rec.jsonl: line 3 is a PreToolUse payload, not SessionStart',
    );
    const missing = runCli(
      ['hooks', 'test', '--payload', 'rec.jsonl', '--line', '9', '--settings', 'settings.json'],
      dir,
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(
      'hookloop: --payload rec.jsonl: no JSON object on line 9 (lines with one: 1, 2, 3)',
    );
  });

  it('--payload --all replays every line (of EVENT when given), one report each; any refusal exits 1', () => {
    const dir = project({ PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] });
    const recorded = recordedLines(dir);
    fs.writeFileSync(
      path.join(dir, 'rec.jsonl'),
      recorded.map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const all = runCli(
      ['hooks', 'test', '--payload', 'rec.jsonl', '--all', '--settings', 'settings.json', '--json'],
      dir,
    );
    expect(all.status).toBe(1);
    const reports = JSON.parse(all.stdout) as {
      event: string;
      payload: unknown;
      verdict: { refuses: boolean };
    }[];
    expect(reports.map((report) => [report.event, report.verdict.refuses])).toEqual([
      ['SessionStart', false],
      ['PreToolUse', false],
      ['PreToolUse', true],
    ]);
    expect(reports.map((report) => report.payload)).toEqual(recorded);
    const onlyTools = runCli(
      ['hooks', 'test', 'PreToolUse', '--payload', 'rec.jsonl', '--all', '--settings', 'settings.json'],
      dir,
    );
    expect(onlyTools.stdout.match(/^PreToolUse for tool Bash$/gm)).toHaveLength(2);
    expect(onlyTools.stdout).toContain('note: line 2 of rec.jsonl');
    expect(onlyTools.stdout).toContain('note: line 3 of rec.jsonl');
    expect(onlyTools.stdout).not.toContain('SessionStart');
  });

  it('bad input around --payload: no EVENT and no payload, a line without hook_event_name, --line without --payload (exit 2, one line)', () => {
    const dir = project({});
    fs.writeFileSync(path.join(dir, 'bare.jsonl'), '{"tool_name":"Bash"}\n{"tool_name":"Read"}\n');
    const cases: [string[], string][] = [
      [
        ['hooks', 'test'],
        'hookloop: hooks test: name the event (e.g. hooks test PreToolUse), or pass --payload FILE, whose payloads name theirs',
      ],
      [
        ['hooks', 'test', '--payload', 'bare.jsonl'],
        'hookloop: --payload bare.jsonl: line 1 has no hook_event_name; name the event: hooks test EVENT --payload bare.jsonl',
      ],
      [
        ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--line', '2'],
        'hookloop: hooks test: --line and --all pick lines of --payload FILE; pass --payload',
      ],
    ];
    for (const [args, message] of cases) {
      const run = runCli(args, dir);
      expect(run.status).toBe(2);
      expect(run.stderr.trim()).toBe(message);
    }
  });

  it('bad input: an unknown event, a tool event without --tool, invalid --input JSON (exit 2, one line)', () => {
    const dir = project({});
    const cases: [string[], RegExp][] = [
      [
        ['hooks', 'test', 'PreTooluse'],
        /^hookloop: hooks test PreTooluse: unknown event; expected one of SessionStart, /,
      ],
      [['hooks', 'test', 'PreToolUse'], /^hookloop: hooks test PreToolUse: name the tool with --tool NAME/],
      [
        ['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{command'],
        /^hookloop: --input: not valid JSON: /,
      ],
    ];
    for (const [args, message] of cases) {
      const run = runCli(args, dir);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

/** What `hooks record` writes for a session with two Bash calls: SessionStart, then a harmless and a dangerous PreToolUse. */
function recordedLines(dir: string): Record<string, unknown>[] {
  const common = { session_id: 's1', transcript_path: '/t', cwd: dir };
  const call = (command: string, id: string) => ({
    ...common,
    prompt_id: 'p1',
    permission_mode: 'default',
    effort: { level: 'medium' },
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: id,
  });
  return [
    { ...common, hook_event_name: 'SessionStart', source: 'startup' },
    call('ls', 'toolu_1'),
    call('rm -rf x', 'toolu_2'),
  ];
}
