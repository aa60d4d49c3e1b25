import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCommand, type CommandContext } from '../../src/cli/hooks-command/check-command.js';
import { tempProject } from '../support/scripted-run.js';

function context(
  projectFiles: Record<string, string> = {},
  extra: Partial<CommandContext> = {},
): CommandContext {
  const projectDir = tempProject(projectFiles);
  for (const name of Object.keys(projectFiles))
    if (name.endsWith('.sh')) fs.chmodSync(path.join(projectDir, name), 0o755);
  return {
    projectDir,
    homeDir: tempProject({ '.claude/hooks/home.sh': '#!/bin/sh\n' }),
    path: process.env['PATH'] ?? '/usr/bin:/bin',
    ...extra,
  };
}

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'command' as const,
  command: text,
  ...extra,
});

describe('checkCommand', () => {
  it('accepts programs that exist: quoted and unquoted $CLAUDE_PROJECT_DIR, ~/, PATH, builtins', async () => {
    const ctx = context({ '.claude/hooks/guard.sh': '#!/bin/sh\n' });
    fs.chmodSync(path.join(ctx.homeDir, '.claude/hooks/home.sh'), 0o755);
    for (const text of [
      '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
      '$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh',
      '${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh arg',
      '~/.claude/hooks/home.sh',
      'cat > /dev/null; echo ok',
      'exit 0',
      '[ -f x ] && true',
    ]) {
      expect(await checkCommand(command(text), ctx), text).toEqual([]);
    }
  });

  it('reports a missing or non-executable program of the first command as an error, of later ones as a warning', async () => {
    const ctx = context({ 'hooks/plain.txt': 'x' });
    expect(await checkCommand(command('"$CLAUDE_PROJECT_DIR"/hooks/none.sh'), ctx)).toEqual([
      { severity: 'error', message: `${ctx.projectDir}/hooks/none.sh: no such file` },
    ]);
    expect(await checkCommand(command(`${ctx.projectDir}/hooks/plain.txt`), ctx)).toEqual([
      {
        severity: 'error',
        message: `${ctx.projectDir}/hooks/plain.txt: not executable (chmod +x ${ctx.projectDir}/hooks/plain.txt)`,
      },
    ]);
    expect(
      await checkCommand(
        command('command -v zz-missing-tool >/dev/null || exit 0; zz-missing-tool --check'),
        ctx,
      ),
    ).toEqual([{ severity: 'warning', message: 'zz-missing-tool: not found in PATH' }]);
  });

  it('checks the script an interpreter runs, not inline code', async () => {
    const ctx = context({ 'hooks/ok.py': 'print(1)\n' });
    expect(await checkCommand(command('python3 "$CLAUDE_PROJECT_DIR"/hooks/ok.py'), ctx)).toEqual([]);
    expect(await checkCommand(command('node "$CLAUDE_PROJECT_DIR/hooks/gone.mjs"'), ctx)).toEqual([
      { severity: 'error', message: `${ctx.projectDir}/hooks/gone.mjs: no such file` },
    ]);
    expect(
      await checkCommand(command('python3 -c "import sys; print(sys.argv)" /not/a/script.py'), ctx),
    ).toEqual([]);
    expect(await checkCommand(command('bash -c "$CLAUDE_PROJECT_DIR/x.sh two words"'), ctx)).toEqual([]);
  });

  it('exec form: the program after ${CLAUDE_PROJECT_DIR} substitution; plugin variables', async () => {
    const ctx = context({ 'bin/hook.sh': '#!/bin/sh\n' }, {});
    expect(
      await checkCommand(command('${CLAUDE_PROJECT_DIR}/bin/hook.sh', { args: ['$HOME'] }), ctx),
    ).toEqual([]);
    expect(await checkCommand(command('${CLAUDE_PROJECT_DIR}/bin/nope', { args: [] }), ctx)).toEqual([
      { severity: 'error', message: `${ctx.projectDir}/bin/nope: no such file` },
    ]);
    const plugin = { ...ctx, pluginRoot: path.join(ctx.projectDir, 'bin') };
    expect(await checkCommand(command('${CLAUDE_PLUGIN_ROOT}/hook.sh'), plugin)).toEqual([]);
    expect(await checkCommand(command('${CLAUDE_PLUGIN_ROOT}/hook.sh'), ctx)).toEqual([]); // unknown root: not checked
  });

  it('warns about paths relative to the current directory and unquoted paths that split', async () => {
    const ctx = context({ 'hooks/guard.sh': '#!/bin/sh\n' });
    expect(await checkCommand(command('./hooks/guard.sh'), ctx)).toEqual([
      {
        severity: 'warning',
        message: `./hooks/guard.sh: relative to the session's current directory, which follows the Bash tool's cd; "$CLAUDE_PROJECT_DIR"/hooks/guard.sh always finds it`,
      },
    ]);
    const spaced = path.join(tempProject(), 'my project');
    fs.mkdirSync(path.join(spaced, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(spaced, 'hooks/guard.sh'), '#!/bin/sh\n', { mode: 0o755 });
    expect(
      await checkCommand(command('$CLAUDE_PROJECT_DIR/hooks/guard.sh'), { ...ctx, projectDir: spaced }),
    ).toEqual([
      {
        severity: 'error',
        message:
          '$CLAUDE_PROJECT_DIR/hooks/guard.sh: unquoted, so the project path splits at its space; write "$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
      },
    ]);
  });
});
