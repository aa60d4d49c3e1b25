import { describe, expect, it } from 'vitest';
import { resultJson } from '../../src/cli/result-json.js';
import type { RunResult } from '../../src/index.js';

const base: RunResult = {
  result: 'done',
  isError: false,
  terminalReason: 'completed',
  stopReason: 'end_turn',
  numTurns: 1,
  sessionId: 's',
  durationMs: 5,
  usage: { inputTokens: 1, outputTokens: 1 },
  permissionDenials: [],
  messages: [],
};

describe('--output-format json result', () => {
  it('reports terminal_reason and api_error_status for a run that reached the model', () => {
    expect(resultJson(base)).toMatchObject({ terminal_reason: 'completed', api_error_status: null });
  });

  it('leaves terminal_reason and api_error_status out when a UserPromptSubmit hook blocked the prompt, as Claude Code does (ups-block-json)', () => {
    const json = resultJson({
      ...base,
      result: 'UserPromptSubmit operation blocked by hook:\nno',
      terminalReason: 'prompt_blocked',
      stopReason: null,
      numTurns: 0,
    });
    expect(json).not.toHaveProperty('terminal_reason');
    expect(json).not.toHaveProperty('api_error_status');
    expect(json).toMatchObject({
      subtype: 'success',
      is_error: false,
      stop_reason: null,
      num_turns: 0,
      permission_denials: [],
    });
  });

  it('leaves api_error_status out of a run a PreToolUse hook deferred, as Claude Code does (pre-json-defer)', () => {
    const deferredToolUse = { id: 'toolu_01', name: 'Bash', input: { command: 'echo ran > ran.txt' } };
    const json = resultJson({
      ...base,
      result: '',
      terminalReason: 'tool_deferred',
      stopReason: 'tool_deferred',
      deferredToolUse,
    });
    expect(json).not.toHaveProperty('api_error_status');
    expect(json).toMatchObject({
      stop_reason: 'tool_deferred',
      terminal_reason: 'tool_deferred',
      deferred_tool_use: deferredToolUse,
    });
  });
});
