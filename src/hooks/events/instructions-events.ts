import path from 'node:path';
import { z } from 'zod';
import { observerRule } from '../merge/rule.js';
import { defineEvent } from './define-event.js';
import { commonInput, commonOutput } from './fields.js';

/** Why a memory file was loaded, as Claude Code reports it (`nested_traversal`, `path_glob_match` and `compact` are Claude Code's; hookloop sends the first and the last two it implements). */
export const INSTRUCTIONS_LOAD_REASONS = [
  'session_start',
  'nested_traversal',
  'path_glob_match',
  'include',
  'compact',
] as const;

/**
 * A memory file (CLAUDE.md, CLAUDE.local.md, a rules file, or a file one of them imports with
 * `@path`) was loaded for the model; one event per file, after SessionStart and before the first
 * UserPromptSubmit. For observers (audit which instructions a session ran under): nothing a hook
 * answers changes what is loaded. `parent_file_path` names the importing file (`include`);
 * `globs` and `trigger_file_path` a scoped rule and the file that matched it.
 */
export const InstructionsLoaded = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('InstructionsLoaded'),
    file_path: z.string(),
    memory_type: z.enum(['User', 'Project', 'Local', 'Managed']),
    load_reason: z.enum(INSTRUCTIONS_LOAD_REASONS),
    globs: z.array(z.string()).optional(),
    trigger_file_path: z.string().optional(),
    parent_file_path: z.string().optional(),
  }),
  output: z.strictObject(commonOutput),
  matchField: 'load_reason',
  merge: observerRule,
  example: (context) => ({
    file_path: path.join(context.projectDir, 'CLAUDE.md'),
    memory_type: 'Project',
    load_reason: 'session_start',
  }),
});
