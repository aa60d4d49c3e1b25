import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  HookEngine,
  projectSlug,
  readTranscriptLines,
  transcriptPathFor,
} from '../../src/index.js';
import { scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

// The transcript as hook scripts read it (../shared/claude-code-transcript-format.md).

type Line = Record<string, unknown> & {
  type: string;
  message?: { role: string; content: unknown; id?: string };
};
const readLines = (file: string): Line[] =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

describe('transcript location', () => {
  it('slugs the launch directory as Claude Code does, hashing paths past 200 characters', () => {
    expect(projectSlug('/tmp/x/My Dir_v1.2')).toBe('-tmp-x-My-Dir-v1-2');
    expect(projectSlug('wéird ünï')).toBe('w-ird--n-');
    expect(projectSlug('e😀x')).toBe('e--x');
    const long = `/tmp/${'a'.repeat(300)}`;
    expect(projectSlug(long)).toMatch(new RegExp(`^-tmp-a{195}-[0-9a-z]+$`));
    expect(projectSlug(long)).not.toBe(projectSlug(`${long}b`));
  });

  it('lives under configDir/projects/<slug>/<session>.jsonl, the path every hook gets as transcript_path', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const hooks = new HookEngine();
    const paths = new Set<string>();
    for (const event of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'Stop',
      'SessionEnd',
    ] as const) {
      hooks.on(event, (input) => void paths.add(input.transcript_path));
    }
    const { result } = await scriptedRun(
      [[toolUse('toolu_01', 'Bash', { command: 'echo hi' })], [text('done')]],
      { projectDir, configDir, hooks, tools: builtinTools(), permissions: { rules: { allow: ['Bash'] } } },
    );
    const expected = transcriptPathFor(configDir, projectDir, result.sessionId);
    expect([...paths]).toEqual([expected]);
    expect(fs.existsSync(expected)).toBe(true);
    expect(fs.statSync(expected).mode & 0o777).toBe(0o600);
  });
});

describe('transcript lines', () => {
  async function transcriptOf(
    turns: Parameters<typeof scriptedRun>[0],
    extra: Parameters<typeof scriptedRun>[1] = {},
  ) {
    const configDir = tempProject();
    const projectDir = tempProject();
    const run = await scriptedRun(turns, {
      projectDir,
      configDir,
      tools: builtinTools(),
      permissions: { rules: { allow: ['Bash'] } },
      ...extra,
    });
    return { ...run, file: transcriptPathFor(configDir, projectDir, run.result.sessionId) };
  }

  it('are compact JSON, one per content block and result, chained by parentUuid, in the reference shapes', async () => {
    const { file, result } = await transcriptOf([
      [text('I will run echo.'), toolUse('toolu_01', 'Bash', { command: 'echo hello' })],
      { content: [text('first answer')], usage: { input_tokens: 10, output_tokens: 5 } },
    ]);
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    expect(raw).toContain('"role":"assistant"'); // what the ralph-loop Stop hook greps for
    const lines = readLines(file);
    expect(
      lines.map((line) => [
        line.type,
        Array.isArray(line.message?.content)
          ? (line.message.content as { type: string }[])[0]!.type
          : typeof line.message?.content,
      ]),
    ).toEqual([
      ['user', 'string'],
      ['assistant', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
      ['assistant', 'text'],
    ]);
    const [prompt, says, calls, output, answer] = lines as [Line, Line, Line, Line, Line];
    expect(prompt).toMatchObject({
      parentUuid: null,
      isSidechain: false,
      message: { role: 'user', content: 'go' },
      sessionId: result.sessionId,
      userType: 'external',
      gitBranch: 'HEAD',
    });
    expect(prompt['promptId']).toEqual(expect.any(String));
    expect(says.message!.id).toBe(calls.message!.id);
    expect(says['parentUuid']).toBe(prompt['uuid']);
    expect(calls['parentUuid']).toBe(says['uuid']);
    expect(calls.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo hello' } }],
    });
    expect(output).toMatchObject({
      parentUuid: calls['uuid'],
      sourceToolAssistantUUID: calls['uuid'],
      message: {
        role: 'user',
        content: [{ tool_use_id: 'toolu_01', type: 'tool_result', content: 'hello', is_error: false }],
      },
      toolUseResult: {
        stdout: 'hello',
        stderr: '',
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      },
    });
    expect(answer.message).toMatchObject({
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    expect(answer['parentUuid']).toBe(output['uuid']);
    for (const line of lines) expect(line['timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('mark Stop feedback as isMeta and keep hook context as system attachments', async () => {
    const hooks = new HookEngine();
    hooks.on('Stop', ({ stop_hook_active }) =>
      stop_hook_active ? undefined : { decision: 'block', reason: 'run the tests first' },
    );
    hooks.on('UserPromptSubmit', () => ({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-CTX' },
    }));
    const { file } = await transcriptOf([[text('first')], [text('second')]], { hooks });
    const lines = readLines(file);
    expect(lines.find((line) => line.type === 'attachment')).toMatchObject({
      attachment: {
        type: 'hookloop_system_message',
        content: 'UserPromptSubmit hook additional context: UPS-CTX',
      },
      renderedRole: 'system',
    });
    expect(lines.find((line) => line['isMeta'] === true)).toMatchObject({
      type: 'user',
      message: { content: 'Stop hook feedback:\nrun the tests first' },
    });
    expect(
      lines
        .filter((line) => line.type === 'user' && line['isMeta'] !== true)
        .map((line) => line.message!.content),
    ).toEqual(['go']);
  });

  it('are on disk before each hook that could read them runs', async () => {
    const hooks = new HookEngine();
    const seen: Record<string, string[]> = {};
    const snapshot = (event: string, file: string) => {
      const kinds = fs.existsSync(file)
        ? readLines(file).map((line) =>
            Array.isArray(line.message?.content)
              ? `${line.type}:${(line.message.content as { type: string }[])[0]!.type}`
              : line.type,
          )
        : ['(no file)'];
      (seen[event] ??= []).push(kinds.join(' '));
    };
    for (const event of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'Stop',
      'SessionEnd',
    ] as const) {
      hooks.on(event, (input) => void snapshot(event, input.transcript_path));
    }
    await transcriptOf([[toolUse('toolu_01', 'Bash', { command: 'echo one' })], [text('done')]], { hooks });
    expect(seen).toEqual({
      SessionStart: ['(no file)'],
      UserPromptSubmit: ['(no file)'],
      PreToolUse: ['user assistant:tool_use'],
      PostToolUse: ['user assistant:tool_use'],
      PostToolBatch: ['user assistant:tool_use user:tool_result'],
      Stop: ['user assistant:tool_use user:tool_result assistant:text'],
      SessionEnd: ['user assistant:tool_use user:tool_result assistant:text'],
    });
  });

  it('can be turned off', async () => {
    const configDir = tempProject();
    await scriptedRun([[text('done')]], { configDir, transcript: false });
    expect(fs.existsSync(path.join(configDir, 'projects'))).toBe(false);
  });
});

describe('reading a transcript', () => {
  it('skips a truncated last line with a warning and a bad line in the middle with another', () => {
    const dir = tempProject();
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(
      file,
      '{"type":"user","message":{"role":"user","content":"a"}}\nnot json\n{"type":"assistant","message":{"role":"assis',
    );
    const read = readTranscriptLines(file);
    expect(read.lines).toHaveLength(1);
    expect(read.warnings).toEqual([
      `${file}: line 2 is not valid JSON; it was skipped`,
      `${file}: the last line is incomplete (the session was cut off while writing it); it was skipped`,
    ]);
  });
});
