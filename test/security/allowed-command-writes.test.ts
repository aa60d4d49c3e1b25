import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, HookEngine } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// A rule or hook that approves a Bash command approves running it, not the files it writes: every
// written path (redirections, tee, cp targets …) is checked as a Write of that path.

async function run(command: string, rules: { allow?: string[]; deny?: string[] }, options: { mode?: 'default' | 'acceptEdits'; hooks?: HookEngine } = {}) {
  const dir = tempProject();
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
  const { result } = await scriptedRun([[toolUse('t1', 'Bash', { command })], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    permissions: { rules, ...(options.mode ? { mode: options.mode } : {}) },
  });
  return { dir, first: toolResults(result.messages)[0] };
}

function hookAllowing(): HookEngine {
  const hooks = new HookEngine();
  hooks.on('PreToolUse', () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }));
  return hooks;
}

describe('written paths of an allowed command are approved as writes', () => {
  it('Bash(echo two:*) does not approve `> two.txt`: headless, it is refused', async () => {
    const { dir, first } = await run('echo two > two.txt', { allow: ['Bash(echo two:*)'] });
    expect(fs.existsSync(path.join(dir, 'two.txt'))).toBe(false);
    expect(first).toMatchObject({ isError: true });
  });

  it('a rule naming the program covers what the program writes inside the workspace (as Claude Code runs touch under Bash(touch *)), never outside it', async () => {
    const { dir } = await run('cp a.txt b.txt', { allow: ['Bash'] });
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(true);
    const outside = tempProject();
    await run(`cp a.txt ${outside}/b.txt`, { allow: ['Bash'] });
    expect(fs.existsSync(path.join(outside, 'b.txt'))).toBe(false);
  });

  it('legitimate: the same command runs with an Edit rule for the path, in acceptEdits, or to /dev/null', async () => {
    expect(fs.readFileSync(path.join((await run('echo two > two.txt', { allow: ['Bash(echo two:*)', 'Edit(./two.txt)'] })).dir, 'two.txt'), 'utf8')).toBe('two\n');
    expect(fs.existsSync(path.join((await run('echo two > two.txt', { allow: ['Bash(echo two:*)'] }, { mode: 'acceptEdits' })).dir, 'two.txt'))).toBe(true);
    expect((await run('echo two > /dev/null', { allow: ['Bash(echo two:*)'] })).first).toMatchObject({ isError: false });
  });

  it('a Write deny rule covers a redirection of an allowed command, and a bare Edit deny every write', async () => {
    const prod = await run('mkdir -p prod; echo x > prod/f', { allow: ['Bash'], deny: ['Write(./prod/**)'] });
    expect(fs.existsSync(path.join(prod.dir, 'prod', 'f'))).toBe(false);
    const edit = await run('tee t.txt < a.txt', { allow: ['Bash(tee:*)'], deny: ['Edit'] });
    expect(fs.existsSync(path.join(edit.dir, 't.txt'))).toBe(false);
  });

  it('a hook allow skips the approval inside the workspace but never writes outside it', async () => {
    const outside = tempProject();
    const canary = path.join(outside, 'canary.txt');
    await run(`cp a.txt ${canary}`, {}, { hooks: hookAllowing() });
    expect(fs.existsSync(canary)).toBe(false);
    const inside = await run('echo x > inside.txt', {}, { hooks: hookAllowing() });
    expect(fs.existsSync(path.join(inside.dir, 'inside.txt'))).toBe(true);
  });
});
