import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assistantMessage,
  builtinTools,
  HookEngine,
  type HookInput,
  latestTranscript,
  loadSession,
  readTranscriptLines,
  rebuildConversation,
  RESUMED_WITHOUT_RESULT,
  toolResultMessage,
  transcriptPathFor,
  userMessage,
} from '../../src/index.js';
import { pairingViolations, scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

describe('resume', () => {
  it('rebuilds the conversation a run wrote, and a resumed run sends it again with SessionStart source "resume"', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const common = {
      projectDir,
      configDir,
      tools: builtinTools(),
      permissions: { rules: { allow: ['Bash'] } },
    };
    const first = await scriptedRun(
      [[text('looking'), toolUse('toolu_01', 'Bash', { command: 'echo one' })], [text('first answer')]],
      common,
      'first prompt',
    );
    const file = latestTranscript(configDir, projectDir)!;
    expect(file).toBe(transcriptPathFor(configDir, projectDir, first.result.sessionId));

    const resumed = loadSession(file);
    expect(resumed.sessionId).toBe(first.result.sessionId);
    expect(resumed.warnings).toEqual([]);
    expect(resumed.messages).toEqual(first.result.messages);

    const hooks = new HookEngine();
    const starts: HookInput<'SessionStart'>[] = [];
    hooks.on('SessionStart', (input) => void starts.push(input));
    const second = await scriptedRun(
      [[text('second answer')]],
      { ...common, hooks, resume: resumed },
      'second prompt',
    );
    expect(starts.map((input) => [input.source, input.session_id, input.transcript_path])).toEqual([
      ['resume', first.result.sessionId, file],
    ]);
    expect(second.model.requests[0]!.messages).toEqual([
      ...first.result.messages,
      userMessage('second prompt'),
    ]);
    // The same file goes on, and reads back as the whole conversation.
    expect(loadSession(file).messages).toEqual([
      ...first.result.messages,
      userMessage('second prompt'),
      assistantMessage('second answer'),
    ]);
  });

  it('pairs a call that has no result (the session stopped mid-tool) with an error result, and writes that result', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const hooks = new HookEngine();
    // Simulate a crash: the transcript is cut right after the tool_use line.
    let cut: string | undefined;
    hooks.on('PreToolUse', ({ transcript_path }) => {
      cut ??= fs.readFileSync(transcript_path, 'utf8');
      return undefined;
    });
    const { result } = await scriptedRun(
      [
        [
          toolUse('toolu_01', 'Bash', { command: 'echo one' }),
          toolUse('toolu_02', 'Bash', { command: 'echo two' }),
        ],
        [text('never')],
      ],
      {
        projectDir,
        configDir,
        hooks,
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
        lenient: true,
      },
    );
    const file = transcriptPathFor(configDir, projectDir, result.sessionId);
    fs.writeFileSync(file, cut!);

    const resumed = loadSession(file);
    expect(resumed.messages.slice(-3)).toEqual([
      assistantMessage('', [
        { id: 'toolu_01', name: 'Bash', input: { command: 'echo one' } },
        { id: 'toolu_02', name: 'Bash', input: { command: 'echo two' } },
      ]),
      toolResultMessage('toolu_01', 'Bash', RESUMED_WITHOUT_RESULT, true),
      toolResultMessage('toolu_02', 'Bash', RESUMED_WITHOUT_RESULT, true),
    ]);
    expect(resumed.warnings).toHaveLength(2);
    expect(pairingViolations(resumed.messages)).toEqual([]);

    await scriptedRun([[text('carrying on')]], { projectDir, configDir, resume: resumed }, 'continue');
    const lines = readTranscriptLines(file).lines;
    const repaired = lines.filter(
      (line) => Array.isArray(line.message?.content) && line.message.content[0]?.type === 'tool_result',
    );
    expect(
      repaired.map((line) => [
        (line.message!.content as unknown as { tool_use_id: string }[])[0]!.tool_use_id,
        line['sourceToolAssistantUUID'],
      ]),
    ).toEqual([
      [
        'toolu_01',
        lines.find((line) => JSON.stringify(line.message?.content).includes('"id":"toolu_01"'))!.uuid,
      ],
      [
        'toolu_02',
        lines.find((line) => JSON.stringify(line.message?.content).includes('"id":"toolu_02"'))!.uuid,
      ],
    ]);
    // Read again, nothing is left to repair.
    expect(loadSession(file).repairs).toEqual([]);
    expect(pairingViolations(loadSession(file).messages)).toEqual([]);
  });

  it('skips a truncated last line with a warning', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const { result } = await scriptedRun([[text('answer')]], { projectDir, configDir });
    const file = transcriptPathFor(configDir, projectDir, result.sessionId);
    fs.appendFileSync(
      file,
      '{"parentUuid":"x","type":"assistant","message":{"role":"assistant","content":[{"type":"te',
    );
    const resumed = loadSession(file);
    expect(resumed.messages).toEqual(result.messages);
    expect(resumed.warnings).toEqual([expect.stringContaining('the last line is incomplete')]);
  });

  it('reads a transcript Claude Code wrote (format notes §13): prompt, blocks of one response, result, feedback; metadata skipped', () => {
    const example = path.join(
      path.dirname(new URL(import.meta.url).pathname),
      'fixtures/claude-code-example.jsonl',
    );
    const read = readTranscriptLines(example);
    const rebuilt = rebuildConversation(read.lines);
    expect(read.warnings).toEqual([]);
    expect(rebuilt.messages).toEqual([
      userMessage('say hello'),
      expect.objectContaining({ role: 'system' }), // the date attachment the model saw
      assistantMessage('I will run echo.', [
        { id: 'toolu_01', name: 'Bash', input: { command: 'echo hello' } },
      ]),
      toolResultMessage('toolu_01', 'Bash', 'hello', false),
      expect.objectContaining({ role: 'system' }), // the PostToolUse context attachment
      assistantMessage('first answer'),
      userMessage('Stop hook feedback:\nSTOP-BLOCK-REASON: run the tests first'),
      expect.objectContaining({ role: 'system' }),
      assistantMessage('second answer'),
    ]);
    expect(rebuilt.leafUuid).toBe('00000000-0000-4000-8000-000000000013');
    expect(rebuilt.contextTokens).toBe(15);
  });

  it('refuses a missing or empty transcript with a clear error', () => {
    const dir = tempProject();
    expect(() => loadSession(path.join(dir, 'nope.jsonl'))).toThrow(/no such transcript/);
    fs.writeFileSync(path.join(dir, 'empty.jsonl'), '');
    expect(() => loadSession(path.join(dir, 'empty.jsonl'))).toThrow(/holds no conversation/);
  });
});
