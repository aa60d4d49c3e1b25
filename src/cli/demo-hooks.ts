import fs from 'node:fs';
import path from 'node:path';
import { block, deny } from '../hooks/builders.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import { makeDirectorySync } from '../files/make-directory.js';

/** What the demo's hooks saw, for the summary. */
export interface DemoTally {
  ran: number;
  blocked: string[];
  rewrittenInputs: number;
  truncatedOutputs: number;
  stopContinuations: number;
}

const MAX_OUTPUT_LINES = 10;

/**
 * The demo's in-process hooks, each a behaviour that would otherwise be an if-else in the loop:
 * a generated-file guard, a path rewrite, output truncation, a "run the tests" Stop gate and an
 * audit log. Returns the live tally the summary prints.
 */
export function registerDemoHooks(hooks: HookEngine, options: { auditLog: string }): DemoTally {
  const tally: DemoTally = {
    ran: 0,
    blocked: [],
    rewrittenInputs: 0,
    truncatedOutputs: 0,
    stopContinuations: 0,
  };
  const ran = new Set<string>();
  let testsRan = false;

  // Guard: generated files are produced by a generator, never edited by hand.
  hooks.on('PreToolUse', { matcher: 'Write|Edit', name: 'generated-file-guard' }, ({ tool_input }) => {
    const file = String(tool_input['file_path']);
    if (/\.gen\.[a-z]+$/.test(file))
      return deny(`${path.basename(file)} is generated; change the generator instead`);
    return undefined;
  });

  // Rewrite: scratch notes written at the project root belong in docs/.
  hooks.on('PreToolUse', { matcher: 'Write', name: 'notes-into-docs' }, ({ tool_input, cwd }) => {
    const file = String(tool_input['file_path']);
    if (path.dirname(file) !== cwd || !/^(TODO|NOTES)\.md$/.test(path.basename(file))) return undefined;
    tally.rewrittenInputs++;
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { ...tool_input, file_path: path.join(cwd, 'docs', path.basename(file)) },
      },
    };
  });

  // Truncate: long Bash output is cut to its first lines before the model sees it.
  hooks.on('PostToolUse', { matcher: 'Bash', name: 'truncate-output' }, ({ tool_response }) => {
    const response = tool_response as { stdout: string };
    const lines = response.stdout.split('\n');
    if (lines.length <= MAX_OUTPUT_LINES) return undefined;
    tally.truncatedOutputs++;
    const stdout = [
      ...lines.slice(0, MAX_OUTPUT_LINES),
      `… ${lines.length - MAX_OUTPUT_LINES} more lines truncated by the truncate-output hook`,
    ].join('\n');
    return {
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { ...response, stdout } },
    };
  });

  hooks.on('PostToolUse', { matcher: 'Bash', name: 'tests-ran' }, ({ tool_input }) => {
    if (/--test\b|npm test/.test(String(tool_input['command']))) testsRan = true;
  });

  // Stop gate: the model may not finish before the tests ran (one forced turn).
  hooks.on('Stop', { name: 'require-tests' }, ({ stop_hook_active }) => {
    if (testsRan || stop_hook_active) return undefined;
    tally.stopContinuations++;
    return block('Run the tests (node --test test/greet.test.js) before finishing.');
  });

  // Audit: every call and what happened to it, one JSON line each.
  makeDirectorySync(path.dirname(options.auditLog));
  const audit = (record: Record<string, unknown>) =>
    fs.appendFileSync(options.auditLog, `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
  hooks.on('PostToolUse', { name: 'audit' }, ({ tool_name, tool_use_id, tool_input }) => {
    tally.ran++;
    ran.add(tool_use_id);
    audit({ event: 'PostToolUse', tool_name, tool_use_id, tool_input, outcome: 'ran' });
  });
  hooks.on('PostToolUseFailure', { name: 'audit' }, ({ tool_name, tool_use_id, tool_input, error }) => {
    tally.ran++;
    ran.add(tool_use_id);
    audit({ event: 'PostToolUseFailure', tool_name, tool_use_id, tool_input, outcome: 'failed', error });
  });
  hooks.on('PostToolBatch', { name: 'audit' }, ({ tool_calls }) => {
    for (const call of tool_calls) {
      // A call that reached neither PostToolUse nor PostToolUseFailure never ran: a hook, a rule or the schema stopped it.
      const text = String(call.tool_response);
      if (!ran.has(call.tool_use_id)) {
        tally.blocked.push(`${call.tool_name} ${call.tool_use_id}`);
        audit({
          event: 'PostToolBatch',
          tool_name: call.tool_name,
          tool_use_id: call.tool_use_id,
          tool_input: call.tool_input,
          outcome: 'blocked',
          reason: text,
        });
      }
    }
  });
  return tally;
}
