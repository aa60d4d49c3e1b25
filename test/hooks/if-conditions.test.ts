import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookEngine, deny } from '../../src/index.js';
import { compatRun, tempProject, text, toolResults, toolUse } from '../hooks-compat/support.js';

// Issue 15 item 9: a library user's `if` handlers behave like the CLI's, without wiring anything.

describe('`if` conditions on in-process hooks', () => {
  it('are evaluated by the engine itself: the hook runs only for the calls its rule matches', async () => {
    const dir = tempProject({ 'victim.txt': 'keep me' });
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on('PreToolUse', { matcher: 'Bash', if: 'Bash(rm *)' }, ({ tool_input }) => {
      seen.push(String(tool_input['command']));
      return deny('no removals');
    });
    const calls = [
      toolUse('toolu_01', 'Bash', { command: 'touch made.txt' }),
      toolUse('toolu_02', 'Bash', { command: 'rm victim.txt' }),
    ];
    const { result } = await compatRun([calls, [text('done')]], {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(seen).toEqual(['rm victim.txt']);
    expect(fs.existsSync(path.join(dir, 'made.txt'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(toolResults(result.messages)[1]!.content).toContain('no removals');
  });

  it('resolve relative path rules from the project folder', async () => {
    const dir = tempProject();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { if: 'Write(./protected/**)' }, () => deny('protected'));
    const calls = [
      toolUse('toolu_01', 'Write', { file_path: path.join(dir, 'protected', 'a.txt'), content: 'x' }),
      toolUse('toolu_02', 'Write', { file_path: path.join(dir, 'free.txt'), content: 'y' }),
    ];
    await compatRun([calls, [text('done')]], {
      projectDir: dir,
      hooks,
      permissions: { mode: 'acceptEdits' },
    });
    expect(fs.existsSync(path.join(dir, 'protected', 'a.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'free.txt'), 'utf8')).toBe('y');
  });
});
