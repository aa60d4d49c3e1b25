import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/index.js';
import {
  pairingViolations,
  scriptedRun,
  tempProject,
  text,
  toolResults,
  toolUse,
} from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));

/** Calls the model may make: valid, invalid, failing, crashing, hanging, garbage-answering, denied, unknown. */
const CALLS = [
  { name: 'mcp__test__echo', input: { text: 'ok' }, valid: true },
  { name: 'mcp__test__echo', input: { text: 7 }, valid: false, known: true },
  { name: 'mcp__test__fail', input: {}, valid: true },
  { name: 'mcp__test__crash', input: {}, valid: true },
  { name: 'mcp__test__hang', input: {}, valid: true },
  { name: 'mcp__test__garbage', input: {}, valid: true },
  { name: 'mcp__test__danger', input: {}, valid: true },
  { name: 'mcp__test__nope', input: {}, valid: false, known: false },
] as const;

describe('MCP tools under faults (property)', () => {
  it('every call is paired, mcp__test__danger never runs, an unknown tool fires no hook, and input the server refuses is an error result', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.nat(CALLS.length - 1), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.boolean(),
        async (turnIndexes, hookAllows) => {
          const dir = tempProject();
          const log = path.join(dir, 'calls.log');
          let id = 0;
          const invalidIds = new Set<string>();
          const unknownIds = new Set<string>();
          const turns = turnIndexes.map((turn) =>
            turn.map((index) => {
              const call = CALLS[index]!;
              const toolUseId = `toolu_${++id}`;
              // Input that does not fit the schema goes to the server (as under Claude Code), which refuses it.
              if (!call.valid && 'known' in call && call.known) invalidIds.add(toolUseId);
              if (!call.valid && 'known' in call && !call.known) unknownIds.add(toolUseId);
              return toolUse(toolUseId, call.name, call.input as Record<string, unknown>);
            }),
          );
          const hooks = new HookEngine();
          const hooked: string[] = [];
          hooks.on('PreToolUse', (input) => {
            hooked.push(input.tool_use_id);
            return hookAllows
              ? ({
                  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
                } as never)
              : undefined;
          });
          const { result } = await scriptedRun([...turns, [text('done')]], {
            projectDir: dir,
            hooks,
            // MCP_TOOL_TIMEOUT ends the hanging calls (a limit, not a timed assertion).
            env: { CALL_LOG: log, MCP_TOOL_TIMEOUT: '300' },
            mcpServers: { test: { command: process.execPath, args: [SERVER], env: { CALL_LOG: log } } },
            permissions: { rules: { allow: ['mcp__test'], deny: ['mcp__test__danger'] } },
          });
          expect(pairingViolations(result.messages)).toEqual([]);
          expect(toolResults(result.messages)).toHaveLength(id);
          const ran = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n') : [];
          expect(ran).not.toContain('danger');
          expect(hooked.filter((toolUseId) => unknownIds.has(toolUseId))).toEqual([]);
          for (const paired of toolResults(result.messages))
            if (invalidIds.has(paired.toolCallId)) expect(paired.isError).toBe(true);
        },
      ),
      { numRuns: 6, seed: 12 },
    );
  }, 240_000);
});
