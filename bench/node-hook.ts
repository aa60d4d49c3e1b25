/**
 * The `node` hook of row 0: a PreToolUse hook written with `hookloop/hook` (a little work: it reads
 * the command and answers with context), run one-shot by both agents and persistent by hookloop.
 */
import { defineHook } from '../src/hook.js';

await defineHook((input) => {
  const command = String((input['tool_input'] as { command?: unknown } | undefined)?.command ?? '');
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      additionalContext: `checked ${command.length} characters`,
    },
  };
});
