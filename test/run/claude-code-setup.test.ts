import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadClaudeCodeSetup, runAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { trustWorkspace } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

function writeMock(dir: string, file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value));
}

/** A model that asks for Bash `command`, then ends. */
function bashThenDone(command: string): ScriptedModel {
  return new ScriptedModel([
    [{ type: 'tool_use', id: 'call0', name: 'Bash', input: { command } }],
    [{ type: 'text', text: 'done' }],
  ]);
}

describe('loadClaudeCodeSetup (the package root)', () => {
  it("runs a project's settings hooks and rules as the CLI would: a PreToolUse command hook sees the call, a deny rule refuses it", async () => {
    const dir = tempProject();
    const home = tempProject();
    const seen = path.join(dir, 'seen.json');
    writeMock(dir, '.claude/settings.json', {
      permissions: { deny: ['Bash(touch:*)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}` }] },
        ],
      },
    });
    const warnings: string[] = [];
    const setup = await loadClaudeCodeSetup(dir, {
      homeDir: home,
      env: {},
      warn: (text) => warnings.push(text),
    });
    const result = await runAgent('go', { ...setup, model: bashThenDone('touch made'), transcript: false });
    expect(result.isError).toBe(false);
    expect(JSON.parse(fs.readFileSync(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'touch made' },
    });
    expect(fs.existsSync(path.join(dir, 'made'))).toBe(false);
    expect(result.permissionDenials.map((denial) => denial.tool_name)).toEqual(['Bash']);
    expect(warnings).toEqual([]);
  });

  it('adds the command-line rules after the settings: an allowedTools rule lets the call run in dontAsk mode', async () => {
    const dir = tempProject();
    const setup = await loadClaudeCodeSetup(dir, {
      homeDir: tempProject(),
      env: {},
      allowedTools: ['Bash(touch:*)'],
      permissionMode: 'dontAsk',
      warn: () => {},
    });
    const result = await runAgent('go', { ...setup, model: bashThenDone('touch made'), transcript: false });
    expect(result.permissionDenials).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'made'))).toBe(true);
  });

  it('refuses a deny rule it cannot read at all with a ConfigError naming the file and field', async () => {
    const dir = tempProject();
    writeMock(dir, '.claude/settings.json', { permissions: { deny: ['(rm'] } });
    const loading = loadClaudeCodeSetup(dir, { homeDir: tempProject(), env: {}, warn: () => {} });
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(/\.claude\/settings\.json: permissions\.deny\[0\]/);
  });

  it('leaves out an allow rule it cannot read, with one warning naming the file and field', async () => {
    const dir = tempProject();
    writeMock(dir, '.claude/settings.json', { permissions: { allow: ['Bash(npm test', 'Read'] } });
    const homeDir = tempProject();
    trustWorkspace(dir, homeDir);
    const warnings: string[] = [];
    const setup = await loadClaudeCodeSetup(dir, {
      homeDir,
      env: {},
      warn: (text) => warnings.push(text),
    });
    expect(setup.permissions?.rules?.allow).toEqual(['Read']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\.claude\/settings\.json: permissions\.allow\[0\]: .*ignored/);
  });

  it('reports what it ignores through warn, one line each', async () => {
    const dir = tempProject();
    writeMock(dir, '.claude/settings.json', { permissions: { defaultMode: 'auto' } });
    const warnings: string[] = [];
    await loadClaudeCodeSetup(dir, { homeDir: tempProject(), env: {}, warn: (text) => warnings.push(text) });
    expect(warnings).toEqual([
      `${path.join(dir, '.claude/settings.json')}: permissions.defaultMode: hookloop has no "auto" mode (it needs Claude Code's classifier); ignored`,
    ]);
  });
});
