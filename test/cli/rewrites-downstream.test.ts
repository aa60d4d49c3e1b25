import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// Issue 15 item 6: a rewrite is what everyone downstream sees.

const record = (file: string) => ({
  type: 'command',
  command: `cat >> "$CLAUDE_PROJECT_DIR/${file}"; echo >> "$CLAUDE_PROJECT_DIR/${file}"`,
});
const lines = (dir: string, file: string) =>
  fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function run(settings: Record<string, unknown>, turns: unknown) {
  const dir = tempProject();
  writeJson(dir, 'settings.json', settings);
  writeJson(dir, 'turns.json', turns);
  const result = runCli(
    [
      '-p',
      'go',
      '--settings',
      'settings.json',
      '--model-script',
      'turns.json',
      '--record-requests',
      'requests.jsonl',
    ],
    dir,
  );
  return { dir, ...result };
}

describe('after PostToolUse replaces a tool output', () => {
  it('PostToolBatch hooks and the model get the redacted output, not the secret (a redaction that leaves out the flags)', () => {
    const redact = `cat > /dev/null; printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[REDACTED]","stderr":"","interrupted":false}}}'`;
    const settings = {
      permissions: { allow: ['Bash'] },
      hooks: {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: redact }] }],
        PostToolBatch: [{ hooks: [record('batch.jsonl')] }],
      },
    };
    const { dir, stderr } = run(settings, [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo SECRET-TOKEN' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    expect(stderr).not.toContain('updatedToolOutput ignored');
    const batch = lines(dir, 'batch.jsonl')[0] as { tool_calls: { tool_response: unknown }[] };
    expect(batch.tool_calls[0]!.tool_response).toBe('[REDACTED]');
    const sent = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8');
    expect(sent).toContain('[REDACTED]');
    expect(sent.split('SECRET-TOKEN').length - 1).toBe(1); // only in the model's own tool_use
  });
});

describe('after PreToolUse rewrites file_path to a relative path', () => {
  it('tool_response.filePath and the result text show the absolute path, as Claude Code does', () => {
    const rewrite = `cat > /dev/null; printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"moved.txt","content":"x"}}}'`;
    const settings = {
      hooks: {
        PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: rewrite }] }],
        PostToolUse: [{ matcher: 'Write', hooks: [record('post.jsonl')] }],
      },
    };
    const { dir } = run(settings, [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Write', input: { file_path: 'asked.txt', content: 'y' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    expect(fs.readFileSync(path.join(dir, 'moved.txt'), 'utf8')).toBe('x');
    const post = lines(dir, 'post.jsonl')[0] as { tool_response: { filePath: string } };
    expect(post.tool_response.filePath).toBe(path.join(dir, 'moved.txt'));
    expect(fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')).toContain(
      `File created successfully at: ${path.join(dir, 'moved.txt')}`,
    );
  });

  it('a path the model wrote itself is still echoed as written', () => {
    const settings = {
      permissions: { allow: ['Write'] },
      hooks: { PostToolUse: [{ matcher: 'Write', hooks: [record('post.jsonl')] }] },
    };
    const { dir } = run(settings, [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Write', input: { file_path: 'own.txt', content: 'y' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    expect(
      (lines(dir, 'post.jsonl')[0] as { tool_response: { filePath: string } }).tool_response.filePath,
    ).toBe('own.txt');
  });
});
