import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, ConfigError, runAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { canSandbox, sandboxProject } from './support.js';

function bashScript(...commands: string[]): ScriptedModel {
  return new ScriptedModel([
    ...commands.map((command, index) => [
      { type: 'tool_use' as const, id: `call${index}`, name: 'Bash', input: { command } },
    ]),
    [{ type: 'text' as const, text: 'done' }],
  ]);
}

// RunOptions.sandbox: the library runs Bash in the OS sandbox like the CLI.
describe.skipIf(!canSandbox)('RunOptions.sandbox (library)', () => {
  it('confines Bash to the workspace and its additional directories; the agent configuration in .claude stays read-only; sequential runs share the runtime', async () => {
    const where = sandboxProject({});
    const extra = path.join(where.root, 'extra');
    fs.mkdirSync(extra);
    for (let round = 0; round < 2; round += 1) {
      const result = await runAgent('go', {
        model: bashScript(
          `touch in-${round}`,
          `touch ${extra}/extra-${round}`,
          `touch ${where.outside}/canary-${round}`,
          `d=.claude; touch "$d/settings.local.json" "$d/hooks/guard-${round}.sh"`,
          `touch .claude/loop-${round}.local.md`,
        ),
        projectDir: where.project,
        tools: builtinTools(),
        permissions: { mode: 'bypassPermissions', additionalDirectories: [extra] },
        sandbox: { enabled: true },
        transcript: false,
      });
      expect(result.isError).toBe(false);
      expect(fs.existsSync(path.join(where.project, `in-${round}`))).toBe(true);
      expect(fs.existsSync(path.join(extra, `extra-${round}`))).toBe(true);
      expect(fs.existsSync(path.join(where.outside, `canary-${round}`))).toBe(false);
      expect(fs.existsSync(path.join(where.project, '.claude', 'settings.local.json'))).toBe(false);
      expect(fs.existsSync(path.join(where.project, '.claude', 'hooks', `guard-${round}.sh`))).toBe(false);
      // What a loop or a skill keeps in .claude/ besides the configuration stays writable.
      expect(fs.existsSync(path.join(where.project, '.claude', `loop-${round}.local.md`))).toBe(true);
    }
  });

  it('runs background shells in the sandbox too', async () => {
    const where = sandboxProject({});
    const result = await runAgent('go', {
      model: new ScriptedModel([
        [
          {
            type: 'tool_use',
            id: 'bg',
            name: 'Bash',
            input: {
              command: `touch ${where.outside}/bg-canary; touch bg-inside; echo finished > bg-done`,
              run_in_background: true,
            },
          },
        ],
        // The session ends (and its sandbox with it) after the last turn: wait for the background shell first.
        [
          {
            type: 'tool_use',
            id: 'wait',
            name: 'Bash',
            input: { command: 'for i in $(seq 300); do [ -s bg-done ] && break; sleep 0.1; done' },
          },
        ],
        [{ type: 'text', text: 'done' }],
      ]),
      projectDir: where.project,
      tools: builtinTools(),
      permissions: { mode: 'bypassPermissions' },
      sandbox: { enabled: true },
      transcript: false,
    });
    expect(result.isError).toBe(false);
    expect(fs.readFileSync(path.join(where.project, 'bg-done'), 'utf8')).toBe('finished\n');
    expect(fs.existsSync(path.join(where.project, 'bg-inside'))).toBe(true);
    expect(fs.existsSync(path.join(where.outside, 'bg-canary'))).toBe(false);
  });

  it('failIfUnavailable: runAgent rejects with a ConfigError naming bubblewrap', async () => {
    const where = sandboxProject({});
    const run = runAgent('go', {
      model: bashScript(),
      projectDir: where.project,
      sandbox: { enabled: true, failIfUnavailable: true, bwrapPath: '/nonexistent/bwrap' },
      transcript: false,
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/bubblewrap/);
  });
});
