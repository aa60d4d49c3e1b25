import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatRun, settingsHooks, tempProject, text, toolUse } from './support.js';

// `async` and `asyncRewake` command hooks (conformance async-hook).

const ASYNC_SCRIPT = `#!/bin/bash
input=$(cat)
tuid=$(printf '%s' "$input" | sed -n 's/.*"tool_use_id":"\\([^"]*\\)".*/\\1/p')
sleep "\${ASYNC_SLEEP:-1}"
echo "async-done $tuid" >> "$CLAUDE_PROJECT_DIR/async.log"
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ASYNC-CTX %s"}}\\n' "$tuid"
`;

function asyncProject() {
  const dir = tempProject({ '.claude/hooks/async.sh': ASYNC_SCRIPT });
  fs.chmodSync(path.join(dir, '.claude/hooks/async.sh'), 0o755);
  return dir;
}

const asyncSettings = (extra: Record<string, unknown> = { async: true }) => ({
  permissions: { allow: ['Bash'] },
  hooks: {
    PostToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/async.sh', ...extra }],
      },
    ],
  },
});

describe('async hooks', () => {
  it('the turn does not wait; the context arrives as bare system text on a later request; one still running at the end is killed', async () => {
    const dir = asyncProject();
    const { hooks } = settingsHooks(asyncSettings(), dir);
    const started = Date.now();
    const { result, model } = await compatRun(
      [
        [toolUse('toolu_01', 'Bash', { command: 'echo first' })],
        [toolUse('toolu_02', 'Bash', { command: 'sleep 2; echo second' })],
        [text('done')],
      ],
      { projectDir: dir, hooks, permissions: { rules: { allow: ['Bash'] } } },
    );
    expect(result.result).toBe('done');
    // Turn 2 was asked before the 1 s hook finished: the first call's batch did not wait for it.
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('ASYNC-CTX');
    // Turn 3 (after the 2 s command) carries it, alone and unlabelled, after the results.
    expect(model.requests[2]!.messages.at(-1)).toEqual({ role: 'system', content: 'ASYNC-CTX toolu_01' });
    // The second hook was still sleeping when the run ended: killed, it never wrote its line.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fs.readFileSync(path.join(dir, 'async.log'), 'utf8')).toBe('async-done toolu_01\n');
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('asyncRewake: a background hook that exits 2 after the model stopped wakes it with its stderr', async () => {
    const dir = tempProject();
    const settings = {
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command:
                  'cat >/dev/null; [ -f "$CLAUDE_PROJECT_DIR/woken" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/woken"; sleep 0.5; echo "TESTS FAILED" >&2; exit 2',
                asyncRewake: true,
              },
            ],
          },
        ],
      },
    };
    const { hooks } = settingsHooks(settings, dir);
    const { result, model } = await compatRun([[text('all good')], [text('fixed it')]], {
      projectDir: dir,
      hooks,
    });
    expect(result.result).toBe('fixed it');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.messages.at(-1)).toEqual({
      role: 'system',
      content: `Stop hook blocking error from command: "${settings.hooks.Stop[0]!.hooks[0]!.command}": [${settings.hooks.Stop[0]!.hooks[0]!.command}]: TESTS FAILED\n`,
    });
  });

  it('asyncRewake: a background hook that exits 0 lets the run end', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          Stop: [
            { hooks: [{ type: 'command', command: 'cat >/dev/null; sleep 0.3; exit 0', asyncRewake: true }] },
          ],
        },
      },
      dir,
    );
    const { result, model } = await compatRun([[text('all good')]], { projectDir: dir, hooks });
    expect(result).toMatchObject({ result: 'all good', terminalReason: 'completed' });
    expect(model.requests).toHaveLength(1);
  });
});
