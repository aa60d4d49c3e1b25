import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// Claude Code 2.1.328, measured (scenarios skill-hooks, cmd-hooks): a skill's front-matter hooks
// guard from the Skill call on, for the rest of the session, and not before; `once` runs once.

const GUARD = [
  '#!/bin/bash',
  'input=$(cat)',
  'echo "$input" >> "$CLAUDE_PROJECT_DIR/guard.log"',
  'if echo "$input" | grep -q -- "push --force"; then echo "force push blocked by the release skill" >&2; exit 2; fi',
  '',
].join('\n');

function skillFile(extra = ''): string {
  return [
    '---',
    'name: release',
    'description: Release checklist',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    '          command: \'"$CLAUDE_PROJECT_DIR"/guard.sh\'',
    '        - type: command',
    '          command: \'cat > /dev/null; echo once >> "$CLAUDE_PROJECT_DIR/once.log"\'',
    '          once: true',
    extra,
    '---',
    'Release steps.',
    '',
  ].join('\n');
}

function project(): string {
  const dir = tempProject({ 'guard.sh': GUARD, '.claude/skills/release/SKILL.md': skillFile() });
  fs.chmodSync(path.join(dir, 'guard.sh'), 0o755);
  // The pushes are allowed by rule, so only the skill's hook can stop them.
  writeJson(dir, '.claude/settings.json', {
    permissions: { allow: ['Bash(git push:*)', 'Bash(touch:*)', 'Skill(release)'] },
  });
  return dir;
}

function run(dir: string, turns: unknown[]) {
  writeJson(dir, 't.json', [...turns, [text('done')]]);
  const requests = path.join(dir, 'requests.jsonl');
  trustWorkspace(dir);
  const result = runCli(['-p', 'go', '--model-script', 't.json', '--record-requests', requests], dir);
  const results = fs.existsSync(requests)
    ? fs
        .readFileSync(requests, 'utf8')
        .trim()
        .split('\n')
        .flatMap(
          (line) => (JSON.parse(line) as { messages: { content: unknown }[] }).messages.at(-1)?.content ?? [],
        )
        .filter(
          (block): block is { type: string; tool_use_id: string; content: unknown } =>
            typeof block === 'object' &&
            block !== null &&
            (block as { type?: string }).type === 'tool_result',
        )
    : [];
  return {
    ...result,
    results: new Map(results.map((block) => [block.tool_use_id, JSON.stringify(block.content)])),
  };
}

const push = (id: string) => toolUse(id, 'Bash', { command: 'git push --force origin main' });

describe("hooks in a skill's front matter", () => {
  it('block a force push after the Skill call, not before; a once handler runs for the first call only', () => {
    const dir = project();
    const { status, results } = run(dir, [
      [push('toolu_1')],
      [toolUse('toolu_2', 'Skill', { skill: 'release' })],
      [push('toolu_3')],
      [toolUse('toolu_4', 'Bash', { command: 'touch after.txt' })],
    ]);
    expect(status).toBe(0);
    // Before the Skill call the guard does not run: the push runs (and fails: no remote).
    expect(results.get('toolu_1')).not.toContain('force push blocked');
    expect(results.get('toolu_3')).toContain('force push blocked by the release skill');
    const guarded = fs
      .readFileSync(path.join(dir, 'guard.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { tool_use_id: string }).tool_use_id);
    expect(guarded).toEqual(['toolu_3', 'toolu_4']);
    expect(fs.readFileSync(path.join(dir, 'once.log'), 'utf8')).toBe('once\n');
    expect(fs.existsSync(path.join(dir, 'after.txt'))).toBe(true);
  });

  it('do nothing when the skill is never loaded', () => {
    const dir = project();
    const { status, results } = run(dir, [[push('toolu_1')]]);
    expect(status).toBe(0);
    expect(results.get('toolu_1')).not.toContain('force push blocked');
    expect(fs.existsSync(path.join(dir, 'guard.log'))).toBe(false);
  });

  it('are listed by hooks list with the skill file as their source', () => {
    const dir = project();
    const list = runCli(['hooks', 'list'], dir);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(
      'from skill release: .claude/skills/release/SKILL.md hooks.PreToolUse[0].hooks[1]',
    );
    expect(list.stdout).toMatch(/PreToolUse "Bash" {2}command: .*guard\.sh/);
    const json = JSON.parse(runCli(['hooks', 'list', '--json'], dir).stdout) as {
      skillHooks: { skill: string; once: boolean }[];
    };
    expect(json.skillHooks.map((hook) => [hook.skill, hook.once])).toEqual([
      ['release', false],
      ['release', true],
    ]);
  });

  it('an unreadable handler is left out with one warning naming the skill file and field; the others still guard', () => {
    const dir = project();
    fs.writeFileSync(
      path.join(dir, '.claude/skills/release/SKILL.md'),
      skillFile('    - matcher: Bash\n      hooks:\n        - type: bogus'),
    );
    const { status, stderr, results } = run(dir, [
      [toolUse('toolu_2', 'Skill', { skill: 'release' })],
      [push('toolu_3')],
    ]);
    expect(status).toBe(0);
    expect(stderr).toContain(
      `${path.join(dir, '.claude/skills/release/SKILL.md')}: hooks.PreToolUse[1].hooks[0].type: expected one of`,
    );
    expect(results.get('toolu_3')).toContain('force push blocked by the release skill');
  });
});
