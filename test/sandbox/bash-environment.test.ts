import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, runAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { bashTurn, runScripted, sandboxProject } from './support.js';

const CREDENTIALS = {
  ANTHROPIC_API_KEY: 'sk-ant-secret-1',
  ANTHROPIC_AUTH_TOKEN: 'secret-2',
  OPENAI_API_KEY: 'sk-secret-3',
};

/** Waits for `file` to hold text (a background shell writes it after the call returned). */
async function contentOf(file: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('\n'))
      return fs.readFileSync(file, 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

describe('the environment of Bash processes (CLI)', () => {
  it('keeps provider credentials out of Bash and background shells; hooks still get them, as in Claude Code', async () => {
    const where = sandboxProject({
      permissions: { allow: ['Bash'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'echo "hook=$ANTHROPIC_API_KEY" >> "$CLAUDE_PROJECT_DIR/hook-env.txt"',
              },
            ],
          },
        ],
      },
    });
    const run = await runScripted(
      where,
      [
        bashTurn('echo', {
          command:
            'echo "a=$ANTHROPIC_API_KEY t=$ANTHROPIC_AUTH_TOKEN o=$OPENAI_API_KEY"; env | grep -c -e sk-ant-secret -e sk-secret -e secret-2 || true',
        }),
        bashTurn('bg', {
          command: 'echo "bg=$ANTHROPIC_API_KEY$OPENAI_API_KEY" > bg-env.txt',
          run_in_background: true,
        }),
      ],
      { env: CREDENTIALS },
    );
    expect(run.status).toBe(0);
    expect(run.results['echo']).toBe('a= t= o=\n0');
    expect(await contentOf(path.join(where.project, 'bg-env.txt'))).toBe('bg=\n');
    expect(fs.readFileSync(path.join(where.project, 'hook-env.txt'), 'utf8')).toContain(
      'hook=sk-ant-secret-1',
    );
  });

  it("keeps provider credentials out of the Bash command's parent process too (/proc/$PPID/environ), in bypassPermissions", async () => {
    const where = sandboxProject({});
    const run = await runScripted(
      where,
      [
        // The first command of the run, when the spawner may still be starting, and a later one.
        bashTurn('first', {
          command:
            'tr "\\0" "\\n" < /proc/$PPID/environ | grep -c -e sk-ant-secret -e sk-secret -e secret-2 || true',
        }),
        bashTurn('later', {
          command:
            'tr "\\0" "\\n" < /proc/$PPID/environ | grep -c -e sk-ant-secret -e sk-secret -e secret-2 || true; tr "\\0" "\\n" < /proc/$PPID/environ | grep -c "^HOME=" || true',
        }),
      ],
      { env: CREDENTIALS, args: ['--permission-mode', 'bypassPermissions'] },
    );
    expect(run.status).toBe(0);
    expect(run.results['first']).toBe('0');
    // The parent's environment is readable and ordinary (HOME is there): only the keys are gone.
    expect(run.results['later']).toBe('0\n1');
  });

  it('gives Bash the session variables: the ralph-loop state file records the run session id', async () => {
    const where = sandboxProject({ permissions: { allow: ['Bash'] } });
    const state = path.join(where.project, 'ralph-loop.local.md');
    const run = await runScripted(where, [
      bashTurn('setup', {
        command: `printf 'session_id: %s\\nclaudecode: %s\\n' "\${CLAUDE_CODE_SESSION_ID}" "$CLAUDECODE" > ralph-loop.local.md`,
      }),
      bashTurn('bg', {
        command: 'echo "bg_session: $CLAUDE_CODE_SESSION_ID" > bg-session.txt',
        run_in_background: true,
      }),
    ]);
    expect(run.status).toBe(0);
    const sessionId = run.json?.session_id;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.readFileSync(state, 'utf8')).toBe(`session_id: ${sessionId}\nclaudecode: 1\n`);
    expect(await contentOf(path.join(where.project, 'bg-session.txt'))).toBe(`bg_session: ${sessionId}\n`);
  });

  it('withholds variables that sandbox.credentials denies, even with the sandbox off', async () => {
    const where = sandboxProject({
      permissions: { allow: ['Bash'] },
      sandbox: { credentials: { envVars: [{ name: 'DEPLOY_TOKEN', mode: 'deny' }] } },
    });
    const run = await runScripted(
      where,
      [bashTurn('echo', { command: 'echo "deploy=$DEPLOY_TOKEN other=$OTHER_VALUE"' })],
      { env: { DEPLOY_TOKEN: 'tok', OTHER_VALUE: 'kept' } },
    );
    expect(run.results['echo']).toBe('deploy= other=kept');
  });
});

describe('the environment of Bash processes (library)', () => {
  it('runAgent: session id in Bash, provider credentials withheld from the inherited env, RunOptions.env kept', async () => {
    const where = sandboxProject({});
    const saved = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-inherited';
    try {
      const model = new ScriptedModel([
        [
          {
            type: 'tool_use',
            id: 'env',
            name: 'Bash',
            input: { command: 'echo "sid=$CLAUDE_CODE_SESSION_ID o=$OPENAI_API_KEY x=$EXPLICIT"' },
          },
        ],
        [{ type: 'text', text: 'done' }],
      ]);
      const result = await runAgent('go', {
        model,
        projectDir: where.project,
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
        env: { EXPLICIT: 'given' },
        transcript: false,
      });
      expect(JSON.stringify(result.messages)).toContain(`sid=${result.sessionId} o= x=given`);
    } finally {
      if (saved === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = saved;
    }
  });
});
