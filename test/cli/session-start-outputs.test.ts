import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// SessionStart outputs as Claude Code 2.1.328 honours them in -p runs (conformance session-start-outputs).

function project(hookScript: string, turns: unknown[]): string {
  const dir = tempProject({ '.claude/hooks/ss.sh': hookScript });
  fs.chmodSync(path.join(dir, '.claude/hooks/ss.sh'), 0o755);
  writeJson(dir, 'turns.json', turns);
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash'] },
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/ss.sh' }] }] },
  });
  return dir;
}

describe('SessionStart', () => {
  it('export lines a hook appends to $CLAUDE_ENV_FILE reach later Bash calls', () => {
    const dir = project(
      `#!/bin/sh\ncat > /dev/null\necho "$CLAUDE_ENV_FILE" > envfile-path.txt\necho 'export FROM_ENV_FILE="env file value"' >> "$CLAUDE_ENV_FILE"\n`,
      [[{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo "var=$FROM_ENV_FILE"' } }], [{ type: 'text', text: 'done' }]],
    );
    const run = runCli(['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json', '--record-requests', 'requests.jsonl'], dir);
    expect(run.status).toBe(0);
    const envFile = fs.readFileSync(path.join(dir, 'envfile-path.txt'), 'utf8').trim();
    expect(envFile).toMatch(new RegExp(`^${path.join(dir, '.test-home')}/\\.claude/session-env/[0-9a-f-]+/sessionstart-hook-0\\.sh$`));
    const requests = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { messages: { content: unknown }[] });
    expect(JSON.stringify(requests[1]!.messages.at(-1))).toContain('var=env file value');
  });
});
