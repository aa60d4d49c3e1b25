import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  block,
  HookEngine,
  loadSettings,
  registerSettingsHandlers,
  rewritePrompt,
  runAgent,
  type Message,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

/** The user texts a request carried. */
const userTexts = (messages: readonly Message[]) =>
  messages.flatMap((message) => (message.role === 'user' ? [message.content] : []));

function transcriptLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function settingsEngine(projectDir: string, settings: unknown, engine = new HookEngine()): HookEngine {
  const home = path.join(projectDir, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  const loaded = loadSettings({ projectDir, homeDir: home, flagSettings: JSON.stringify(settings) });
  registerSettingsHandlers(engine, loaded.handlers, projectDir);
  return engine;
}

const answer = (prompt: string) =>
  `printf '%s' '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","updatedPrompt":"${prompt}"}}'`;

describe('UserPromptSubmit updatedPrompt (hookloop extension)', () => {
  it('CLI: a command hook rewrites the prompt; the model gets the rewrite, the transcript keeps both texts', () => {
    const dir = tempProject();
    writeJson(dir, 't.json', [[{ type: 'text', text: 'done' }]]);
    writeJson(dir, 's.json', {
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: answer('fix the bug in src/app.ts, then run the tests') }] },
        ],
      },
    });
    const run = runCli(
      [
        '-p',
        'fix it',
        '--settings',
        's.json',
        '--model-script',
        't.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
      { HOOKLOOP_HOME: path.join(dir, '.config') },
    );
    expect(run.status, run.stderr).toBe(0);
    const [request] = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: { role: string; content: unknown }[] });
    expect(JSON.stringify(request!.messages)).toContain('fix the bug in src/app.ts, then run the tests');
    expect(JSON.stringify(request!.messages)).not.toContain('fix it"');
    const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const projects = path.join(dir, '.config', 'projects');
    const transcript = path.join(projects, fs.readdirSync(projects)[0]!, `${sessionId}.jsonl`);
    const prompt = transcriptLines(transcript).find((line) => line['type'] === 'user');
    expect(prompt).toMatchObject({
      message: { role: 'user', content: 'fix the bug in src/app.ts, then run the tests' },
      typedPrompt: 'fix it',
    });
  });

  it("callbacks run in order and each sees the previous rewrite; a settings hook then sees the callbacks' prompt", async () => {
    const projectDir = tempProject();
    const seen: string[] = [];
    const hooks = settingsEngine(projectDir, {
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: `cat > "$CLAUDE_PROJECT_DIR/stdin.json"` }] },
        ],
      },
    });
    hooks.on('UserPromptSubmit', ({ prompt }) => {
      seen.push(prompt);
      return rewritePrompt(`${prompt} (first)`);
    });
    hooks.on('UserPromptSubmit', ({ prompt }) => {
      seen.push(prompt);
      return rewritePrompt(`${prompt} (second)`);
    });
    const model = new ScriptedModel([[{ type: 'text', text: 'ok' }]]);
    const result = await runAgent('typed', { model, projectDir, hooks, transcript: false });
    expect(seen).toEqual(['typed', 'typed (first)']);
    expect(
      (JSON.parse(fs.readFileSync(path.join(projectDir, 'stdin.json'), 'utf8')) as { prompt: string }).prompt,
    ).toBe('typed (first) (second)');
    expect(userTexts(model.requests[0]!.messages)).toEqual(['typed (first) (second)']);
    expect(result.messages[0]).toEqual({ role: 'user', content: 'typed (first) (second)' });
  });

  it('settings hooks run concurrently; several rewrites merge in settings order (the last one wins, whichever finished first)', async () => {
    const projectDir = tempProject();
    const slowFirst = `sleep 0.3; ${answer('from the first group')}`;
    const hooks = settingsEngine(projectDir, {
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: answer('from the second-to-last') }] },
          { hooks: [{ type: 'command', command: slowFirst }] },
        ],
      },
    });
    const model = new ScriptedModel([[{ type: 'text', text: 'ok' }]]);
    await runAgent('typed', { model, projectDir, hooks, transcript: false });
    expect(userTexts(model.requests[0]!.messages)).toEqual(['from the first group']);
  });

  it('a block wins over a rewrite: the model is never called and the result names the typed prompt', async () => {
    const projectDir = tempProject();
    const hooks = new HookEngine();
    hooks.on('UserPromptSubmit', () => rewritePrompt('rewritten'));
    hooks.on('UserPromptSubmit', () => block('not today'));
    const model = new ScriptedModel([]);
    const result = await runAgent('typed', { model, projectDir, hooks, transcript: false });
    expect(model.requests).toHaveLength(0);
    expect(result.terminalReason).toBe('prompt_blocked');
    expect(result.result).toBe(
      'UserPromptSubmit operation blocked by hook:\nnot today\n\nOriginal prompt: typed',
    );
  });

  it("suppressOriginalPrompt (Claude Code's): a block message without the original prompt", async () => {
    const projectDir = tempProject();
    const command = `printf '%s' '{"decision":"block","reason":"secret in prompt","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","suppressOriginalPrompt":true}}'`;
    const hooks = settingsEngine(projectDir, {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] },
    });
    const result = await runAgent('my password is hunter2', {
      model: new ScriptedModel([]),
      projectDir,
      hooks,
      transcript: false,
    });
    expect(result.result).toBe('UserPromptSubmit operation blocked by hook:\nsecret in prompt');
    expect(result.result).not.toContain('hunter2');
  });
});
