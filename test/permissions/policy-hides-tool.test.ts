import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/index.js';
import { Workspace } from '../../src/tools/workspace.js';

const policy = (deny: string[], allow: string[] = []) =>
  new PermissionPolicy({
    rules: { allow, ask: [], deny },
    mode: 'default',
    workspace: new Workspace('/p'),
    projectDir: '/p',
  });

describe('PermissionPolicy.hidesTool', () => {
  it('hides a tool that a deny rule names whole: the tool, its server, or a wildcard of its server', () => {
    const hiding = policy(['mcp__github', 'mcp__files__delete_*', 'mcp__db__drop_table', 'Task']);
    expect(
      ['mcp__github__create_issue', 'mcp__files__delete_file', 'mcp__db__drop_table', 'Agent', 'Task'].filter(
        (name) => !hiding.hidesTool(name),
      ),
    ).toEqual([]);
  });

  it('keeps offering what no deny rule names whole', () => {
    const hiding = policy(
      ['mcp__files__delete_*', 'Bash(rm:*)', 'Edit', 'mcp__db__drop_table(x)'],
      ['mcp__db__query'],
    );
    expect(
      [
        'mcp__files__read_file',
        'Bash',
        'Write',
        'mcp__db__query',
        'mcp__db__drop_table',
        'mcp__githubx__a',
      ].filter((name) => hiding.hidesTool(name)),
    ).toEqual([]);
  });

  it('hides a tool once a session deny rule names it', () => {
    const hiding = policy([]);
    expect(hiding.hidesTool('mcp__github__create_issue')).toBe(false);
    hiding.addSessionRule('deny', 'mcp__github__create_issue');
    expect(hiding.hidesTool('mcp__github__create_issue')).toBe(true);
  });
});
