import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import {
  HookEngine,
  type Message,
  runAgent,
  type RunEvent,
  type RunOptions,
  type RunResult,
  type ToolResultMessage,
} from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh real project directory with the given files; removed after the test. */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-test-')));
  made.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** A tool_use block for scripts. */
export function toolUse(id: string, name: string, input: Record<string, unknown>) {
  return { type: 'tool_use', id, name, input } as const;
}

/** A text block for scripts. */
export function text(value: string) {
  return { type: 'text', text: value } as const;
}

export interface ScriptedRun {
  readonly result: RunResult;
  readonly model: ScriptedModel;
  readonly events: RunEvent[];
}

/** Runs `prompt` with a strict scripted model and records every RunEvent. */
export async function scriptedRun(
  turns: readonly ScriptTurn[],
  options: Partial<RunOptions> & { projectDir?: string; hooks?: HookEngine; lenient?: boolean } = {},
  prompt = 'go',
): Promise<ScriptedRun> {
  const model = new ScriptedModel(turns, { mode: options.lenient ? 'lenient' : 'strict' });
  const events: RunEvent[] = [];
  const result = await runAgent(prompt, {
    projectDir: options.projectDir ?? tempProject(),
    ...options,
    model,
    observers: [(event) => events.push(event), ...(options.observers ?? [])],
  });
  return { result, model, events };
}

/** Every tool result in a conversation. */
export function toolResults(messages: readonly Message[]): ToolResultMessage[] {
  return messages.filter((message): message is ToolResultMessage => message.role === 'tool');
}

/**
 * Asserts pairing on a finished conversation: every tool call of every assistant
 * message has exactly one result, in order, right after it and before the next model turn.
 */
export function pairingViolations(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || message.toolCalls.length === 0) continue;
    const following = messages.slice(index + 1);
    const nextAssistant = following.findIndex((m) => m.role === 'assistant');
    const window = nextAssistant < 0 ? following : following.slice(0, nextAssistant);
    const results = window.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => m.toolCallId);
    const expected = message.toolCalls.map((call) => call.id);
    if (JSON.stringify(results) !== JSON.stringify(expected))
      problems.push(`assistant #${index}: calls ${expected.join(',')} got results ${results.join(',')}`);
  }
  const allCalls = new Set(
    messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((call) => call.id) : [])),
  );
  for (const result of toolResults(messages))
    if (!allCalls.has(result.toolCallId)) problems.push(`result ${result.toolCallId} pairs no call`);
  return problems;
}
