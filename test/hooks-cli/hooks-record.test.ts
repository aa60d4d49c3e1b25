import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

function project(): string {
  const dir = tempProject();
  // A hook that keeps its stdin byte for byte, to compare with the recording.
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash'] },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/stdin.json"' }] },
      ],
    },
  });
  writeJson(dir, 'turns.json', [
    [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo hi' } }],
    [{ type: 'text', text: 'done' }],
  ]);
  return dir;
}

const RUN = ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'];

describe('hookloop hooks record', () => {
  it('prints every payload of the session as JSON lines, exactly what a command hook reads on stdin', () => {
    const dir = project();
    const run = runCli(['hooks', 'record', '--', ...RUN], dir);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const events = lines.map((line) => (JSON.parse(line) as { hook_event_name: string }).hook_event_name);
    // hookloop's model-call events (extensions) are recorded around each of the two model requests;
    // PermissionDecision (an extension too) fires once the call is settled.
    const request = ['PreModelRequest', 'PreToolSelection', 'PostModelResponse'];
    expect(events).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      ...request,
      'PreToolUse',
      'PermissionDecision',
      'PostToolUse',
      'PostToolBatch',
      ...request,
      'Stop',
      'SessionEnd',
    ]);
    expect(lines[5]).toBe(fs.readFileSync(path.join(dir, 'stdin.json'), 'utf8'));
    expect(JSON.parse(lines[2]!)).toMatchObject({
      hook_event_name: 'PreModelRequest',
      caller: 'main',
      turn: 1,
      messages: [{ role: 'user', content: 'go' }],
    });
    // The session's own output goes to stderr, so stdout stays JSON lines.
    expect(run.stderr).toBe('done\n');
    const sessions = new Set(lines.map((line) => (JSON.parse(line) as { session_id: string }).session_id));
    expect(sessions.size).toBe(1);
  });

  it('-o FILE writes the lines there and lets the session print as usual; the arguments may skip --', () => {
    const dir = project();
    const run = runCli(['hooks', 'record', '-o', 'payloads.jsonl', ...RUN, '--output-format', 'json'], dir);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'result', result: 'done' });
    const lines = fs.readFileSync(path.join(dir, 'payloads.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(14);
    // A recording replays through hooks test, the model-call events' too.
    const replay = runCli(
      ['hooks', 'test', 'PreToolUse', '--payload', 'payloads.jsonl', '--settings', 'settings.json', '--json'],
      dir,
    );
    expect(JSON.parse(replay.stdout).payload).toEqual(JSON.parse(lines[5]!));
    const model = runCli(
      [
        'hooks',
        'test',
        'PostModelResponse',
        '--payload',
        'payloads.jsonl',
        '--settings',
        'settings.json',
        '--json',
      ],
      dir,
    );
    expect(JSON.parse(model.stdout).payload).toEqual(JSON.parse(lines[4]!));
  });

  it('refuses arguments that describe no run', () => {
    const run = runCli(['hooks', 'record', '--', 'demo'], tempProject());
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'hookloop: hooks record: expected the arguments of a run, e.g. hookloop hooks record -- -p "PROMPT" --settings hooks.json --model-script turns.json\n',
    );
  });
});
