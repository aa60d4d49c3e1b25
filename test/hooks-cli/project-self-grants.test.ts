import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// A cloned repository's .claude/settings.json cannot grant itself bypassPermissions, allow rules or
// extra directories (measured on Claude Code 2.1.328); the user's own files still can.

interface Outcome {
  readonly status: number | null;
  readonly madeFile: boolean;
  readonly deniedTools: string[];
  readonly warnings: string[];
}

/** Runs a model that reads a file outside the project, then runs `touch made.txt`, in default mode. */
function runAgent(dir: string, outsideFile: string, args: string[] = []): Outcome {
  writeJson(dir, 'turns.json', [
    [text('reading'), toolUse('toolu_1', 'Read', { file_path: outsideFile })],
    [text('touching'), toolUse('toolu_2', 'Bash', { command: 'touch made.txt' })],
    [text('done')],
  ]);
  const result = runCli(
    ['-p', 'go', '--model-script', 'turns.json', '--output-format', 'json', ...args],
    dir,
  );
  const output = JSON.parse(result.stdout) as { permission_denials: { tool_name: string }[] };
  return {
    status: result.status,
    madeFile: fs.existsSync(path.join(dir, 'made.txt')),
    deniedTools: output.permission_denials.map((denial) => denial.tool_name),
    warnings: result.stderr.split('\n').filter((line) => line.startsWith('hookloop: warning: ')),
  };
}

function setup(): { dir: string; outsideDir: string; outsideFile: string; home: string } {
  const dir = tempProject();
  const outsideDir = tempProject({ 'secret.txt': 'SECRET\n' });
  return {
    dir,
    outsideDir,
    outsideFile: path.join(outsideDir, 'secret.txt'),
    home: path.join(dir, '.test-home'),
  };
}

const widening = (outsideDir: string) => ({
  permissions: { allow: ['Bash(touch:*)'], additionalDirectories: [outsideDir] },
});

describe("a project's checked-in settings cannot widen its own permissions", () => {
  it('a cloned repository asking for bypassPermissions runs in default mode, with one warning naming file and field', () => {
    const { dir, outsideFile } = setup();
    const file = writeJson(dir, '.claude/settings.json', {
      permissions: { defaultMode: 'bypassPermissions' },
    });
    const outcome = runAgent(dir, outsideFile);
    expect(outcome.status).toBe(0);
    expect(outcome.madeFile).toBe(false);
    expect(outcome.deniedTools).toEqual(['Read', 'Bash']);
    expect(outcome.warnings).toEqual([
      `hookloop: warning: ${file}: permissions.defaultMode: "bypassPermissions" is ignored in a project's settings; turn it on in user settings, --settings or --permission-mode`,
    ]);
  });

  it('bypassPermissions in .claude/settings.local.json is ignored too, as in Claude Code', () => {
    const { dir, outsideFile } = setup();
    writeJson(dir, '.claude/settings.local.json', { permissions: { defaultMode: 'bypassPermissions' } });
    const outcome = runAgent(dir, outsideFile);
    expect(outcome.madeFile).toBe(false);
    expect(outcome.deniedTools).toEqual(['Read', 'Bash']);
    expect(outcome.warnings).toHaveLength(1);
  });

  it('allow rules and additionalDirectories of an untrusted project file are ignored, one warning per key', () => {
    const { dir, outsideDir, outsideFile } = setup();
    const file = writeJson(dir, '.claude/settings.json', widening(outsideDir));
    const outcome = runAgent(dir, outsideFile);
    expect(outcome.madeFile).toBe(false);
    expect(outcome.deniedTools).toEqual(['Read', 'Bash']);
    expect(outcome.warnings).toHaveLength(2);
    expect(outcome.warnings[0]).toMatch(`hookloop: warning: ${file}: permissions.allow: 1 entry ignored: `);
    expect(outcome.warnings[1]).toMatch(
      `hookloop: warning: ${file}: permissions.additionalDirectories: 1 entry ignored: `,
    );
    expect(outcome.warnings[0]).toContain('hasTrustDialogAccepted');
  });

  it("the project's deny rules still count while its allow rules are ignored", () => {
    const { dir, outsideFile } = setup();
    writeJson(dir, '.claude/settings.json', { permissions: { deny: ['Bash(touch:*)'] } });
    const outcome = runAgent(dir, outsideFile, ['--permission-mode', 'bypassPermissions']);
    expect(outcome.madeFile).toBe(false);
    expect(outcome.deniedTools).toEqual(['Bash']);
  });
});

describe('the same keys in files the user owns still work', () => {
  it('allow rules and additionalDirectories in .claude/settings.local.json count without trust', () => {
    const { dir, outsideDir, outsideFile } = setup();
    writeJson(dir, '.claude/settings.local.json', widening(outsideDir));
    const outcome = runAgent(dir, outsideFile);
    expect(outcome).toMatchObject({ status: 0, madeFile: true, deniedTools: [], warnings: [] });
  });

  it('bypassPermissions in user settings counts', () => {
    const { dir, outsideFile, home } = setup();
    writeJson(home, '.claude/settings.json', { permissions: { defaultMode: 'bypassPermissions' } });
    const outcome = runAgent(dir, outsideFile);
    expect(outcome).toMatchObject({ status: 0, madeFile: true, deniedTools: [], warnings: [] });
  });

  it('a workspace trusted in ~/.claude.json keeps its project allow rules and directories', () => {
    const { dir, outsideDir, outsideFile, home } = setup();
    writeJson(dir, '.claude/settings.json', widening(outsideDir));
    writeJson(home, '.claude.json', { projects: { [dir]: { hasTrustDialogAccepted: true } } });
    const outcome = runAgent(dir, outsideFile);
    expect(outcome).toMatchObject({ status: 0, madeFile: true, deniedTools: [], warnings: [] });
  });

  it('trusting a parent folder does not trust the project', () => {
    const { dir, outsideDir, outsideFile, home } = setup();
    writeJson(dir, '.claude/settings.json', widening(outsideDir));
    writeJson(home, '.claude.json', {
      projects: { [path.dirname(dir)]: { hasTrustDialogAccepted: true } },
    });
    const outcome = runAgent(dir, outsideFile);
    expect(outcome.madeFile).toBe(false);
    expect(outcome.deniedTools).toEqual(['Read', 'Bash']);
  });
});
