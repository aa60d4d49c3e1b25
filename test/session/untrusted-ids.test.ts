import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addContext,
  builtinTools,
  ConfigError,
  HookEngine,
  latestTranscript,
  loadSession,
  userMessage,
} from '../../src/index.js';
import { safePathPart } from '../../src/session/path-part.js';
import { runCli, writeJson } from '../support/cli.js';
import {
  pairingViolations,
  scriptedRun,
  tempProject,
  text,
  toolResults,
  toolUse,
} from '../support/scripted-run.js';

// Issue 14 items 11 and 12: ids chosen by a user or a model never name a path outside the
// session's folders, and a repeated tool-use id never runs twice nor changes what --resume rebuilds.

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('session ids must be UUIDs', () => {
  it('--session-id and --resume with a path-like id exit 2 with one line naming the flag, and write nothing', () => {
    const root = tempProject();
    const dir = path.join(root, 'a', 'b', 'project');
    fs.mkdirSync(dir, { recursive: true });
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'hello' }]]);
    for (const [flag, id] of [
      ['--session-id', '../../../x'],
      ['--session-id', 'not-a-uuid'],
      ['--resume', '../etc'],
      ['--resume', '../../../x'],
    ] as const) {
      const run = runCli([flag, id, '-p', 'hi', '--model-script', 'turns.json'], dir);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `hookloop: ${flag}: ${JSON.stringify(id)} is not a session id (expected a UUID like 0f8fad5b-d9cb-469f-a165-70867728950e)\n`,
      );
    }
    expect(filesUnder(root).filter((file) => file.endsWith('.jsonl'))).toEqual([]);
  });

  it('hooks test --session-id with a path-like id exits 2 and creates no CLAUDE_ENV_FILE folder outside', () => {
    const dir = tempProject();
    writeJson(dir, 'settings.json', {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo "export A=1" >> "$CLAUDE_ENV_FILE"' }] }],
      },
    });
    const run = runCli(
      [
        'hooks',
        'test',
        'SessionStart',
        '--session-id',
        '../../../../escaped-env',
        '--settings',
        'settings.json',
      ],
      dir,
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^hookloop: --session-id: "\.\.\/\.\.\/\.\.\/\.\.\/escaped-env" is not a session id \(expected a UUID/,
    );
    expect(filesUnder(dir).filter((file) => file.includes('escaped-env'))).toEqual([]);
  });

  it('a UUID --session-id names the transcript, and --resume with it goes on', () => {
    const dir = tempProject();
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'hello' }]]);
    const first = runCli(
      ['--session-id', id, '-p', 'hi', '--model-script', 'turns.json', '--output-format', 'json'],
      dir,
    );
    expect(first.status, first.stderr).toBe(0);
    expect(path.basename(latestTranscript(path.join(dir, '.test-home', '.claude'), dir)!)).toBe(
      `${id}.jsonl`,
    );
    const again = runCli(
      ['--resume', id, '-p', 'again', '--model-script', 'turns.json', '--output-format', 'json'],
      dir,
    );
    expect(again.status, again.stderr).toBe(0);
    const both = runCli(
      ['--resume', id, '--session-id', id, '-p', 'again', '--model-script', 'turns.json'],
      dir,
    );
    expect([both.status, both.stderr]).toEqual([
      2,
      'hookloop: --session-id cannot be combined with --resume: a continued session keeps its own id\n',
    ]);
  });

  it('the library refuses a sessionId that is not a UUID with a ConfigError, before writing', async () => {
    const projectDir = tempProject();
    // The config folder sits two levels inside a folder of this test's own, so that an escape
    // by `../../outside` lands where the test can look without scanning the shared /tmp.
    const root = tempProject();
    const configDir = path.join(root, 'home', 'config');
    fs.mkdirSync(configDir, { recursive: true });
    const attempt = scriptedRun([[text('never asked')]], {
      projectDir,
      configDir,
      sessionId: '../../outside',
    });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow('sessionId: "../../outside" is not a session id (expected a UUID');
    expect(filesUnder(configDir)).toEqual([]);
    expect(filesUnder(root).filter((file) => file.includes('outside'))).toEqual([]);
  });
});

describe('a tool-use id the model chose', () => {
  it('never makes a saved-output file leave the session folder', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const big = `${'context line\n'.repeat(1000)}END`;
    const hooks = new HookEngine();
    hooks.on('PostToolUse', () => addContext('PostToolUse', big));
    const ids = ['../../escape', '/tmp/absolute-escape', '..', 'a\u0000b', 'x'.repeat(300)];
    const { result } = await scriptedRun(
      [[...ids.map((id) => toolUse(id, 'Bash', { command: 'echo hi' }))], [text('done')]],
      {
        projectDir,
        configDir,
        hooks,
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
      },
    );
    expect(result.terminalReason).toBe('completed');
    expect(toolResults(result.messages).map((message) => message.content)).toEqual(ids.map(() => 'hi'));
    const sessionFolder = path.join(
      path.dirname(latestTranscript(configDir, projectDir)!),
      result.sessionId,
      'tool-results',
    );
    const saved = fs.readdirSync(sessionFolder);
    expect(saved).toHaveLength(ids.length);
    for (const name of saved) expect(fs.readFileSync(path.join(sessionFolder, name), 'utf8')).toBe(big);
    // Nothing anywhere else: not next to the project, not at the top of the config dir, not in /tmp.
    expect(
      filesUnder(configDir).filter(
        (file) => !file.startsWith(path.relative(configDir, sessionFolder)) && !file.endsWith('.jsonl'),
      ),
    ).toEqual([]);
    expect(filesUnder(projectDir)).toEqual([]);
    expect(fs.existsSync('/tmp/absolute-escape')).toBe(false);
  });

  it('a plain id keeps its name in the file, as Claude Code names it', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const hooks = new HookEngine();
    hooks.on('PostToolUse', () => addContext('PostToolUse', 'y'.repeat(12_000)));
    const { result } = await scriptedRun(
      [[toolUse('toolu_01ABC', 'Bash', { command: 'echo hi' })], [text('done')]],
      { projectDir, configDir, hooks, tools: builtinTools(), permissions: { rules: { allow: ['Bash'] } } },
    );
    const sessionFolder = path.join(
      path.dirname(latestTranscript(configDir, projectDir)!),
      result.sessionId,
      'tool-results',
    );
    expect(fs.readdirSync(sessionFolder)).toEqual([
      expect.stringMatching(/^hook-toolu_01ABC-PostToolUse-[0-9a-f]{32}-additionalContext\.txt$/),
    ]);
  });
});

describe('a tool-use id repeated in one message', () => {
  it('runs the first call only, pairs the repeat with an error result, and --resume rebuilds the same conversation', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const common = {
      projectDir,
      configDir,
      tools: builtinTools(),
      permissions: { rules: { allow: ['Bash'] } },
    };
    const first = await scriptedRun(
      [
        [
          text('two calls, one id'),
          toolUse('toolu_same', 'Bash', { command: 'touch first-canary' }),
          toolUse('toolu_same', 'Bash', { command: 'touch second-canary' }),
        ],
        [text('done')],
      ],
      common,
      'first prompt',
    );
    expect(first.result.terminalReason).toBe('completed');
    expect(fs.existsSync(path.join(projectDir, 'first-canary'))).toBe(true);
    expect(fs.existsSync(path.join(projectDir, 'second-canary'))).toBe(false);
    expect(pairingViolations(first.result.messages)).toEqual([]);
    const results = toolResults(first.result.messages);
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['toolu_same', false],
      ['toolu_same_duplicate2', true],
    ]);
    expect(results[1]!.content).toContain('repeats the id of an earlier call in the same message');
    // What the model was sent after the batch: distinct ids, each paired.
    const sent = first.model.requests[1]!.messages;
    expect(sent).toEqual(first.result.messages.slice(0, -1));

    const resumed = loadSession(latestTranscript(configDir, projectDir)!);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.repairs).toEqual([]);
    expect(resumed.messages).toEqual(first.result.messages);
    const second = await scriptedRun(
      [[text('second answer')]],
      { ...common, resume: resumed },
      'second prompt',
    );
    expect(second.model.requests[0]!.messages).toEqual([
      ...first.result.messages,
      userMessage('second prompt'),
    ]);
    expect(fs.existsSync(path.join(projectDir, 'second-canary'))).toBe(false);
  });

  it('a renamed id does not take an id the message already uses', async () => {
    const projectDir = tempProject();
    const { result } = await scriptedRun(
      [
        [
          toolUse('t', 'Bash', { command: 'echo 1' }),
          toolUse('t_duplicate2', 'Bash', { command: 'echo 2' }),
          toolUse('t', 'Bash', { command: 'touch canary' }),
        ],
        [text('done')],
      ],
      { projectDir, tools: builtinTools(), permissions: { rules: { allow: ['Bash'] } }, transcript: false },
    );
    expect(toolResults(result.messages).map((message) => [message.toolCallId, message.isError])).toEqual([
      ['t', false],
      ['t_duplicate2', false],
      ['t_duplicate3', true],
    ]);
    expect(fs.existsSync(path.join(projectDir, 'canary'))).toBe(false);
  });
});

describe('safePathPart, the one rule for ids in paths', () => {
  it('any string becomes one entry inside the folder it is joined to; distinct ids stay distinct; plain ids are unchanged', () => {
    const folder = '/base/session/tool-results';
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.string({ unit: 'binary', maxLength: 400 }),
        (first, second) => {
          for (const id of [first, second]) {
            const part = safePathPart(id);
            expect(path.dirname(path.join(folder, part))).toBe(folder);
            expect(part).toMatch(/^[A-Za-z0-9_-]{1,100}$/);
          }
          if (first !== second) expect(safePathPart(first)).not.toBe(safePathPart(second));
        },
      ),
    );
    for (const id of ['toolu_01ABCdef', 'call_abc-123', '0f8fad5b-d9cb-469f-a165-70867728950e'])
      expect(safePathPart(id)).toBe(id);
    for (const id of ['..', '.', '', '../../escape', 'a/b', 'a\\b', 'a\u0000b'])
      expect(safePathPart(id)).toMatch(/^[A-Za-z0-9_]*-[0-9a-f]{16}$/);
  });
});
