import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

/** A command hook that prints `output` as JSON. */
const prints = (output: unknown) => ({ type: 'command', command: `printf '%s' '${JSON.stringify(output)}'` });

function project(turns: unknown, hooks: Record<string, unknown>): string {
  const dir = tempProject();
  writeJson(dir, 'turns.json', turns);
  writeJson(dir, 'settings.json', { permissions: { allow: ['Bash'] }, hooks });
  return dir;
}

const RUN = [
  '-p',
  'go',
  '--settings',
  'settings.json',
  '--model-script',
  'turns.json',
  '--record-requests',
  'requests.jsonl',
  '--output-format',
  'json',
];
const requests = (dir: string) =>
  fs
    .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { tools: string[]; messages: unknown[] });

describe('model-call events through the CLI (settings command hooks)', () => {
  it('PreModelRequest answers from a cache: no request reaches the model, the answer is the result', () => {
    const dir = project([], {
      PreModelRequest: [
        {
          matcher: 'main',
          hooks: [
            prints({
              hookSpecificOutput: {
                hookEventName: 'PreModelRequest',
                syntheticResponse: { text: 'cached answer' },
              },
            }),
          ],
        },
      ],
    });
    const run = runCli(RUN, dir, { HOOKLOOP_HOME: path.join(dir, '.config') });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      result: 'cached answer',
      is_error: false,
      terminal_reason: 'completed',
    });
    expect(requests(dir)).toEqual([]);
  });

  it('PreToolSelection hides Bash from every request', () => {
    const dir = project([[{ type: 'text', text: 'done' }]], {
      PreToolSelection: [
        {
          hooks: [
            prints({
              hookSpecificOutput: {
                hookEventName: 'PreToolSelection',
                allowedTools: ['Read', 'Glob', 'Grep'],
              },
            }),
          ],
        },
      ],
    });
    const run = runCli(RUN, dir, { HOOKLOOP_HOME: path.join(dir, '.config') });
    expect(run.status, run.stderr).toBe(0);
    expect(requests(dir).map((request) => request.tools)).toEqual([['Read', 'Glob', 'Grep']]);
  });

  it('PostModelResponse redacts a secret from the answer and from the transcript', () => {
    const dir = project([[{ type: 'text', text: 'use the key sk-live0123456789' }]], {
      PostModelResponse: [{ hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/redact.mjs"' }] }],
    });
    fs.writeFileSync(
      path.join(dir, 'redact.mjs'),
      "let s = '';\nprocess.stdin.on('data', (d) => (s += d)).on('end', () => {\n  const e = JSON.parse(s);\n  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostModelResponse', updatedText: e.response.text.replace(/sk-[a-z0-9]+/g, '[redacted]') } }));\n});\n",
    );
    const run = runCli(RUN, dir, { HOOKLOOP_HOME: path.join(dir, '.config') });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { result: string; session_id: string };
    expect(result.result).toBe('use the key [redacted]');
    const folder = path.join(dir, '.config', 'projects');
    const transcript = fs.readFileSync(
      path.join(folder, fs.readdirSync(folder)[0]!, `${result.session_id}.jsonl`),
      'utf8',
    );
    expect(transcript).toContain('use the key [redacted]');
    expect(transcript).not.toContain('sk-live');
  });

  it('hooks validate says the model-call events are hookloop extensions', () => {
    const dir = project([], {
      PreModelRequest: [{ hooks: [{ type: 'command', command: 'true' }] }],
      PostModelResponse: [{ hooks: [{ type: 'command', command: 'true' }] }],
    });
    const run = runCli(['hooks', 'validate', 'settings.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `warning: ${path.join(dir, 'settings.json')}: hooks.PreModelRequest: PreModelRequest is a hookloop extension (docs/hooks.md): Claude Code does not fire it, so under Claude Code these handlers never run`,
    );
    expect(run.stdout).toContain('hooks.PostModelResponse: PostModelResponse is a hookloop extension');
  });

  it('hooks test runs a PreModelRequest hook on a typical main-loop request and reports its answer', () => {
    const dir = project([], {
      PreModelRequest: [
        {
          matcher: 'main',
          hooks: [
            {
              type: 'command',
              command: `cat > "$CLAUDE_PROJECT_DIR/stdin.json"; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreModelRequest","syntheticResponse":{"text":"hi"}}}'`,
            },
          ],
        },
      ],
    });
    const run = runCli(
      ['hooks', 'test', 'PreModelRequest', '--prompt', 'hello', '--settings', 'settings.json', '--json'],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      payload: Record<string, unknown>;
      verdict: { decision: string; merged: { syntheticResponse: unknown } };
    };
    expect(report.payload).toMatchObject({
      hook_event_name: 'PreModelRequest',
      caller: 'main',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect((report.payload['tools'] as { name: string }[]).map((tool) => tool.name)).toContain('Bash');
    expect(report.verdict).toMatchObject({
      decision: 'answer',
      merged: { syntheticResponse: { text: 'hi' } },
    });
  });
});
