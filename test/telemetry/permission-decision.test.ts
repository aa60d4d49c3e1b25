import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, deny, HookEngine } from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

// PermissionDecision (hookloop extension): after a call is settled, observers and hooks learn the
// decision and who made it — a rule and its file, the mode, a hook and its place, the approver.

describe('PermissionDecision', () => {
  it('names the deny rule, the mode, the deciding PreToolUse callback and the approver, as data', async () => {
    const hooks = new HookEngine();
    const seen: Record<string, unknown>[] = [];
    hooks.on('PermissionDecision', (input) => void seen.push(input));
    hooks.on('PreToolUse', { matcher: 'Write', name: 'no-writes' }, () => deny('writes are reviewed'));
    await scriptedRun(
      [
        [
          toolUse('t1', 'Bash', { command: 'rm -rf build' }),
          toolUse('t2', 'Bash', { command: 'ls' }),
          toolUse('t3', 'Write', { file_path: 'a.txt', content: 'x' }),
          toolUse('t4', 'Bash', { command: 'touch b' }),
        ],
        [text('done')],
      ],
      {
        hooks,
        tools: builtinTools(),
        permissions: { rules: { deny: ['Bash(rm:*)'] }, ruleSources: { deny: ['/etc/team-settings.json'] } },
      },
    );
    const byId = Object.fromEntries(seen.map((input) => [input['tool_use_id'], input]));
    expect(byId['t1']).toMatchObject({
      hook_event_name: 'PermissionDecision',
      tool_name: 'Bash',
      decision: 'deny',
      decided_by: 'rule',
      rule: { list: 'deny', text: 'Bash(rm:*)', file: '/etc/team-settings.json' },
      permission_mode: 'default',
    });
    expect(byId['t2']).toMatchObject({ decision: 'allow', decided_by: 'read_only' });
    expect(byId['t3']).toMatchObject({
      decision: 'deny',
      decided_by: 'hook',
      reason: 'writes are reviewed',
      hook: { event: 'PreToolUse', type: 'callback', name: 'no-writes', source: 'callback' },
    });
    // Headless: nobody approves, so the approver's deny settles the mode's ask.
    expect(byId['t4']).toMatchObject({
      decision: 'deny',
      decided_by: 'approver',
      policy_source: 'mode default',
    });
  });

  it('is reported to observers with the time the decision took', async () => {
    const { events } = await scriptedRun([[toolUse('t1', 'Bash', { command: 'ls' })], [text('done')]], {
      tools: builtinTools(),
    });
    const decision = events.find((event) => event.type === 'permission_decision');
    expect(decision).toMatchObject({
      toolUseId: 't1',
      record: { decision: 'allow', decidedBy: 'read_only', mode: 'default' },
    });
    expect(decision?.type === 'permission_decision' && decision.durationMs >= 0).toBe(true);
  });
});

describe('PermissionDecision through the CLI', () => {
  const blocked = (dir: string) => {
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    writeJson(dir, 'guard.sh', '#!/bin/sh\necho "no deploys from agents" >&2\nexit 2\n');
    fs.chmodSync(path.join(dir, 'guard.sh'), 0o755);
    writeJson(dir, 'hooks.json', {
      permissions: { deny: ['Bash(rm:*)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `${dir}/guard.sh`, if: 'Bash(deploy*)' }] },
        ],
        PermissionDecision: [
          {
            hooks: [
              { type: 'command', command: `cat >> ${dir}/decisions.jsonl; echo >> ${dir}/decisions.jsonl` },
            ],
          },
        ],
      },
    });
    writeJson(dir, 'turns.json', [
      [toolUse('t1', 'Bash', { command: 'deploy prod' }), toolUse('t2', 'Bash', { command: 'rm -rf x' })],
      [text('done')],
    ]);
  };

  it('fires for settings hooks, shows in stream-json and in --verbose', () => {
    const dir = tempProject();
    blocked(dir);
    const run = runCli(
      [
        '-p',
        'go',
        '--settings',
        'hooks.json',
        '--model-script',
        'turns.json',
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const decisions = lines.filter((line) => line['subtype'] === 'permission_decision');
    expect(decisions).toMatchObject([
      {
        tool_use_id: 't1',
        decision: 'deny',
        decided_by: 'hook',
        reason: expect.stringContaining('no deploys from agents'),
        hook: {
          event: 'PreToolUse',
          type: 'command',
          location: expect.stringContaining('hooks.PreToolUse[0].hooks[0]'),
        },
      },
      {
        tool_use_id: 't2',
        decision: 'deny',
        decided_by: 'rule',
        rule: { list: 'deny', text: 'Bash(rm:*)', file: path.join(dir, 'hooks.json') },
      },
    ]);
    expect(run.stderr).toMatch(
      /\[Decision\] Bash t1: deny by PreToolUse hook \[.*guard\.sh\] \(.*hooks\.PreToolUse\[0\]\.hooks\[0\]\): .*no deploys from agents/,
    );
    expect(run.stderr).toMatch(/\[Decision\] Bash t2: deny by deny rule Bash\(rm:\*\) \(.*hooks\.json\)/);
    const hookSaw = fs
      .readFileSync(path.join(dir, 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      hookSaw.map((input) => [input['hook_event_name'], input['tool_use_id'], input['decided_by']]),
    ).toEqual([
      ['PermissionDecision', 't1', 'hook'],
      ['PermissionDecision', 't2', 'rule'],
    ]);
  });

  it('is an event `hooks validate` accepts, with the warning that Claude Code does not fire it', () => {
    const dir = tempProject();
    writeJson(dir, 'hooks.json', {
      hooks: { PermissionDecision: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const run = runCli(['hooks', 'validate', 'hooks.json'], dir);
    expect(run.stderr + run.stdout).not.toMatch(/unknown event/i);
    expect(run.stderr + run.stdout).toContain('PermissionDecision is a hookloop extension');
    expect(run.stdout).toContain('0 errors');
    expect(run.status).toBe(0);
  });
});
