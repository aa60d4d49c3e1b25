/**
 * What the model reads when a person says no at the approval prompt (Claude Code's words, measured
 * in 2.1.328's text) versus a headless refusal; the rule `[a]lways` adds (Claude Code's proposals,
 * measured through PermissionRequest's permission_suggestions); `--max-budget-usd`'s pairing; the
 * memory loader's limits (import depth, imports outside the project, scoped rules, unreadable files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callbackApprover, loadMemory, ruleForCall } from '../../src/index.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import {
  pairingViolations,
  scriptedRun,
  tempProject,
  text,
  toolResults,
  toolUse,
} from '../support/scripted-run.js';

const CLAUDE_CODE_REJECTION =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

describe('an approval answered "no"', () => {
  const turns = [[toolUse('toolu_01', 'Bash', { command: 'touch z1.txt' })], [text('ok')]];

  it('by a person: the model reads that the user declined, and the command did not run', async () => {
    const dir = tempProject();
    const { result } = await scriptedRun(turns, {
      projectDir: dir,
      tools: builtinTools(),
      approver: callbackApprover(() => 'deny', { awaitsHuman: true }),
    });
    const [refused] = toolResults(result.messages);
    expect(refused).toMatchObject({ isError: true, content: CLAUDE_CODE_REJECTION });
    expect(fs.existsSync(path.join(dir, 'z1.txt'))).toBe(false);
  });

  it("headless (nobody asked): the policy's reason stays, since no person declined", async () => {
    const { result } = await scriptedRun(turns, { tools: builtinTools() });
    const [refused] = toolResults(result.messages);
    expect(refused!.isError).toBe(true);
    expect(refused!.content).toMatch(/^touch in '.*' .*/);
    expect(refused!.content).not.toContain("The user doesn't want to proceed");
  });

  it('a person\'s "yes" still runs the call', async () => {
    const dir = tempProject();
    await scriptedRun(turns, {
      projectDir: dir,
      tools: builtinTools(),
      approver: callbackApprover(() => 'allow', { awaitsHuman: true }),
    });
    expect(fs.existsSync(path.join(dir, 'z1.txt'))).toBe(true);
  });
});

describe('the rule an "always" adds', () => {
  const bash = builtinTools().find((tool) => tool.name === 'Bash')!;
  it.each([
    ['git commit -m "x y"', 'Bash(git commit *)'],
    ['npm run build -- --watch', 'Bash(npm run *)'],
    ['touch z1.txt', 'Bash(touch z1.txt)'],
    ['git status', 'Bash(git status)'],
    ['git commit -m x && rm -rf build', 'Bash(git commit -m x && rm -rf build)'],
    ['git commit -m "$(cat msg)"', 'Bash(git commit -m "$\\(cat msg\\)")'],
  ])('%s → %s', (command, rule) => {
    expect(ruleForCall(bash, { command })).toBe(rule);
  });
});

describe('--max-budget-usd in the loop', () => {
  it('keeps every call of the answer that passed the budget paired, unrun', async () => {
    const dir = tempProject();
    const model = {
      name: 'claude-sonnet-4-5',
      complete: async () => ({
        message: {
          role: 'assistant' as const,
          text: '',
          toolCalls: [{ id: 'toolu_01', name: 'Bash', input: { command: 'touch ran.txt' } }],
        },
        usage: { inputTokens: 100_000, outputTokens: 1000 },
        stopReason: 'tool_use',
        model: 'claude-sonnet-4-5',
      }),
    };
    const { runAgent } = await import('../../src/index.js');
    const result = await runAgent('go', {
      model: model as never,
      projectDir: dir,
      tools: builtinTools(),
      maxBudgetUsd: 0.01,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(result.terminalReason).toBe('budget_exhausted');
    expect(result.result).toBe('Reached maximum budget ($0.01)');
    expect(pairingViolations(result.messages)).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(false);
  });
});

describe('loadMemory', () => {
  const configDir = (dir: string) => path.join(dir, '.home', '.claude');

  it('follows imports four levels deep, not five, and reads a file named twice once', () => {
    const dir = tempProject({
      'CLAUDE.md': '@a.md @a.md\n',
      'a.md': '@b.md\n',
      'b.md': '@c.md\n',
      'c.md': '@d.md\n',
      'd.md': '@e.md\n',
      'e.md': 'TOO-DEEP\n',
    });
    const files = loadMemory({
      cwd: dir,
      configDir: configDir(dir),
      managedFile: path.join(dir, 'none'),
    }).files;
    expect(files.map((file) => path.basename(file.path))).toEqual([
      'CLAUDE.md',
      'a.md',
      'b.md',
      'c.md',
      'd.md',
    ]);
    expect(files[1]).toMatchObject({
      loadReason: 'include',
      parentPath: path.join(dir, 'CLAUDE.md'),
      memoryType: 'Project',
    });
  });

  it('does not follow a project import out of the project, but a user file may import from home', () => {
    const dir = tempProject({
      'project/CLAUDE.md': '@../outside.md @~/notes.md\n',
      'outside.md': 'OUTSIDE\n',
      '.home/notes.md': 'NOTES\n',
      '.home/.claude/CLAUDE.md': '@~/notes.md\n',
    });
    const files = loadMemory({
      cwd: path.join(dir, 'project'),
      configDir: configDir(dir),
      homeDir: path.join(dir, '.home'),
      managedFile: path.join(dir, 'none'),
    }).files;
    expect(files.map((file) => [path.relative(dir, file.path), file.memoryType])).toEqual([
      ['.home/.claude/CLAUDE.md', 'User'],
      ['.home/notes.md', 'User'],
      ['project/CLAUDE.md', 'Project'],
    ]);
  });

  it('keeps scoped rules (paths: front matter) for later, reads the managed file first, and warns once for a file it cannot read', () => {
    const dir = tempProject({
      '.claude/rules/ts.md': '---\npaths: "src/**/*.ts"\n---\nTS-RULE\n',
      'managed.md': 'POLICY\n',
      'CLAUDE.local.md': 'LOCAL\n',
    });
    fs.mkdirSync(path.join(dir, 'CLAUDE.md'));
    fs.writeFileSync(path.join(dir, '.claude', 'CLAUDE.md'), 'x');
    fs.chmodSync(path.join(dir, '.claude', 'CLAUDE.md'), 0o000);
    const unreadable = (() => {
      try {
        fs.readFileSync(path.join(dir, '.claude', 'CLAUDE.md'));
        return false;
      } catch {
        return true;
      }
    })();
    const memory = loadMemory({
      cwd: dir,
      configDir: configDir(dir),
      managedFile: path.join(dir, 'managed.md'),
    });
    expect(memory.files.map((file) => [path.basename(file.path), file.memoryType, file.content])).toEqual([
      ['managed.md', 'Managed', 'POLICY'],
      ...(unreadable ? [] : [['CLAUDE.md', 'Project', 'x']]),
      ['CLAUDE.local.md', 'Local', 'LOCAL'],
    ]);
    expect(memory.scopedRules).toEqual([
      expect.objectContaining({ globs: ['src/**/*.ts'], content: 'TS-RULE', baseDir: dir }),
    ]);
    if (unreadable)
      expect(memory.warnings).toEqual([
        expect.stringMatching(/\.claude\/CLAUDE\.md: memory file not loaded: .*EACCES/),
      ]);
  });
});
