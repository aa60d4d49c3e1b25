import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, callbackApprover, HookEngine, type PermissionMode } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Issue 14 items 8 and 9: Grep and Glob obey Read rules and the workspace without leaking whether
// a hidden file exists; Edit tells nothing about a file's content before its permission is decided.

const SECRET = 'SECRET-TOKEN-4242';

async function run(
  dir: string,
  calls: [string, Record<string, unknown>][],
  options: {
    deny?: string[];
    ask?: string[];
    mode?: PermissionMode;
    hooks?: HookEngine;
    approve?: boolean;
  } = {},
) {
  const { result } = await scriptedRun(
    [...calls.map(([tool, input], index) => [toolUse(`t${index}`, tool, input)]), [text('done')]],
    {
      projectDir: dir,
      tools: builtinTools(),
      transcript: false,
      permissions: {
        mode: options.mode ?? 'default',
        rules: { deny: options.deny ?? [], ask: options.ask ?? [] },
      },
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.approve ? { approver: callbackApprover(() => 'allow') } : {}),
    },
  );
  return toolResults(result.messages);
}

function project(): string {
  return tempProject({
    'secrets/key.txt': `${SECRET}\n`,
    'src/app.ts': 'const token = "public";\n',
    'notes.md': 'TOKEN notes\n',
  });
}

describe('Grep obeys Read deny rules', () => {
  it.each(['content', 'files_with_matches', 'count'])(
    'with no path, %s mode never shows secrets/key.txt under deny Read(./secrets/**)',
    async (mode) => {
      const dir = project();
      const [result] = await run(dir, [['Grep', { pattern: 'TOKEN', output_mode: mode, '-i': true }]], {
        deny: ['Read(./secrets/**)'],
      });
      expect(result?.isError).toBe(false);
      expect(result?.content).not.toContain(SECRET);
      expect(result?.content).not.toContain('key.txt');
      expect(result?.content).not.toContain('secrets');
      // The legitimate matches are still found.
      expect(result?.content).toContain(mode === 'files_with_matches' ? 'src/app.ts' : 'app.ts');
    },
  );

  it('a pattern that only the denied file matches finds nothing, exactly as for a pattern nothing matches', async () => {
    const dir = project();
    const [hidden, absent] = await run(
      dir,
      [
        ['Grep', { pattern: SECRET }],
        ['Grep', { pattern: 'NOT-ANYWHERE-9999' }],
      ],
      { deny: ['Read(./secrets/**)'] },
    );
    expect(hidden?.content).toBe(absent?.content);
  });

  it('an ask rule hides the files it covers from a search that did not ask', async () => {
    const dir = project();
    const [result] = await run(dir, [['Grep', { pattern: SECRET, output_mode: 'content' }]], {
      ask: ['Read(./secrets/**)'],
    });
    expect(result?.content).not.toContain(SECRET);
  });

  it('a symlink in the workspace to a file outside is not searched', async () => {
    const dir = project();
    const outside = tempProject({ 'private.txt': 'OUTSIDE-ONLY-777\n' });
    fs.symlinkSync(path.join(outside, 'private.txt'), path.join(dir, 'link.txt'));
    const [result] = await run(dir, [['Grep', { pattern: 'OUTSIDE-ONLY', output_mode: 'content' }]]);
    expect(result?.content).toBe('No matches found');
  });

  it('Grep with a path outside the workspace asks (headless: refused) without saying whether it exists', async () => {
    const dir = project();
    const outside = tempProject({ 'x.txt': 'x\n' });
    const [existing, missing] = await run(dir, [
      ['Grep', { pattern: 'x', path: outside }],
      ['Grep', { pattern: 'x', path: path.join(outside, 'missing') }],
    ]);
    expect(existing?.isError).toBe(true);
    expect(missing?.isError).toBe(true);
    expect(existing?.content).not.toContain('x.txt');
    expect(missing?.content).not.toContain('does not exist');
  });
});

describe('Glob obeys the workspace and Read deny rules', () => {
  it('/etc/host* is refused without a person (headless): nothing outside is listed', async () => {
    const dir = project();
    for (const pattern of ['/etc/host*', '../../../../../../etc/host*']) {
      const [result] = await run(dir, [['Glob', { pattern }]]);
      expect(result?.isError, pattern).toBe(true);
      expect(result?.content).not.toContain('/etc/hosts');
    }
  });

  it('even in bypassPermissions a denied file is never listed or counted', async () => {
    const dir = project();
    const [result] = await run(dir, [['Glob', { pattern: '**/*.txt' }]], {
      deny: ['Read(./secrets/**)'],
      mode: 'bypassPermissions',
    });
    expect(result?.content).toBe('No files found');
  });

  it('a person may approve a Glob outside the workspace; then it lists what is there', async () => {
    const dir = project();
    const outside = tempProject({ 'a.log': '' });
    const [result] = await run(dir, [['Glob', { pattern: `${outside}/*.log` }]], { approve: true });
    expect(result?.content).toBe(path.join(outside, 'a.log'));
  });

  it('inside the workspace it lists the files that are not denied', async () => {
    const dir = project();
    const [result] = await run(dir, [['Glob', { pattern: '**/*' }]], { deny: ['Read(./secrets/**)'] });
    expect(result?.content.split('\n').sort()).toEqual(['notes.md', 'src/app.ts']);
  });
});

describe('Edit decides permission before it reads the file', () => {
  it('a denied file: the wrong and the right old_string get the same refusal', async () => {
    const dir = project();
    const results = await run(
      dir,
      [
        ['Edit', { file_path: 'secrets/key.txt', old_string: 'WRONG-GUESS', new_string: 'x' }],
        ['Edit', { file_path: 'secrets/key.txt', old_string: SECRET, new_string: 'x' }],
      ],
      { deny: ['Edit(./secrets/**)'], mode: 'acceptEdits' },
    );
    expect(results[0]?.content).not.toContain('not found');
    expect(results[0]?.content.replace('WRONG-GUESS', SECRET)).toBe(results[1]?.content);
    expect(fs.readFileSync(path.join(dir, 'secrets/key.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('a file outside the workspace: no "String to replace not found" and no "File does not exist"', async () => {
    const dir = project();
    const outside = tempProject({ 'private.txt': `${SECRET}\n` });
    const results = await run(dir, [
      ['Edit', { file_path: path.join(outside, 'private.txt'), old_string: 'WRONG', new_string: 'x' }],
      ['Edit', { file_path: path.join(outside, 'nothing.txt'), old_string: 'WRONG', new_string: 'x' }],
    ]);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.content).not.toMatch(/not found|does not exist/);
    }
  });

  it('a PreToolUse hook that blocks the Edit decides before the file is read', async () => {
    const dir = project();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'Edit' }, () => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no edits here',
      },
    }));
    const [result] = await run(
      dir,
      [['Edit', { file_path: 'secrets/key.txt', old_string: 'WRONG', new_string: 'x' }]],
      { hooks, mode: 'acceptEdits' },
    );
    expect(result?.content).toContain('no edits here');
    expect(result?.content).not.toContain('not found');
  });

  it('an allowed Edit still reports a missing old_string as Claude Code words it', async () => {
    const dir = project();
    const [missing, done] = await run(
      dir,
      [
        ['Edit', { file_path: 'notes.md', old_string: 'not-there', new_string: 'x' }],
        ['Edit', { file_path: 'notes.md', old_string: 'TOKEN', new_string: 'token' }],
      ],
      { mode: 'acceptEdits' },
    );
    expect(missing?.content).toBe(
      '<tool_use_error>String to replace not found in file.\nString: not-there</tool_use_error>',
    );
    expect(done?.isError).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8')).toBe('token notes\n');
  });
});
