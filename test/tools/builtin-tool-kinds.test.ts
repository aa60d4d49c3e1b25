import { describe, expect, it } from 'vitest';
import { matchesRule } from '../../src/permissions/match-rule.js';
import { rulePaths } from '../../src/sandbox/rule-paths.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import {
  builtinToolKind,
  builtinToolsOfKind,
  usesFilePermissionCheck,
} from '../../src/tools/builtin-tool-kinds.js';

// The table of built-in tool kinds is the one place that says which tools read files, edit files
// or run commands; the policy, the sandbox and the hook texts all derive from it.

const PROJECT = '/p';

describe('the built-in tool kinds', () => {
  it('agree with the kind every shipped built-in tool declares', () => {
    for (const tool of builtinTools()) expect(builtinToolKind(tool.name), tool.name).toBe(tool.kind);
    expect(builtinToolKind('mcp__github__create_issue')).toBe('other');
    expect(builtinToolKind('constructor')).toBe('other');
  });

  it('let an Edit rule cover every tool that edits files, and a Read rule every tool that reads them', async () => {
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])
      expect(
        await matchesRule(
          'Edit(./secret.txt)',
          tool,
          { file_path: '/p/secret.txt', notebook_path: '/p/secret.txt' },
          PROJECT,
          PROJECT,
        ),
        tool,
      ).toBe(true);
    for (const tool of ['Read', 'Glob', 'Grep'])
      expect(
        await matchesRule(
          'Read(./secret.txt)',
          tool,
          { file_path: '/p/secret.txt', path: '/p/secret.txt' },
          PROJECT,
          PROJECT,
        ),
        tool,
      ).toBe(true);
    expect(
      await matchesRule('Edit(./secret.txt)', 'Read', { file_path: '/p/secret.txt' }, PROJECT, PROJECT),
    ).toBe(false);
    expect(
      await matchesRule('Read(./secret.txt)', 'mcp__fs__read', { path: '/p/secret.txt' }, PROJECT, PROJECT),
    ).toBe(false);
  });

  it('carry the rules of every file tool into the sandbox', () => {
    const places = { projectDir: PROJECT, roots: [PROJECT], homeDir: '/home/u' };
    const paths = rulePaths(
      {
        deny: ['NotebookEdit(./nb.ipynb)', 'MultiEdit(./a.txt)', 'Grep(./keys)', 'WebFetch(domain:x.com)'],
        ask: [],
      },
      places,
    );
    expect(paths).toEqual({
      denyRead: ['/p/keys'],
      denyWrite: ['/p/nb.ipynb', '/p/a.txt'],
      unenforceable: [],
    });
    expect(builtinToolsOfKind('bash')).toEqual(new Set(['Bash']));
  });

  it('name the tools whose refusals Claude Code reports by the bare reason', () => {
    expect(['Read', 'Write', 'Edit', 'NotebookEdit'].every(usesFilePermissionCheck)).toBe(true);
    expect(['Glob', 'Grep', 'Bash', 'MultiEdit', 'mcp__x__y', 'toString'].some(usesFilePermissionCheck)).toBe(
      false,
    );
  });
});
