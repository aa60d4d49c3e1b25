import type { MemoryFile } from '../memory/load-memory.js';
import { fireHook, type RunContext } from './run-context.js';

/**
 * InstructionsLoaded once per memory file, in reading order (their hooks run concurrently, as
 * Claude Code fires them): `file_path`, `memory_type`, `load_reason` and, for an import,
 * `parent_file_path`. Observers only; a failing hook is reported and changes nothing. Never rejects.
 */
export async function instructionsLoaded(run: RunContext, files: readonly MemoryFile[]): Promise<void> {
  if (files.length === 0 || !run.hooks.has('InstructionsLoaded')) return;
  await Promise.all(
    files.map((file) =>
      fireHook(run, 'InstructionsLoaded', {
        file_path: file.path,
        memory_type: file.memoryType,
        load_reason: file.loadReason,
        ...(file.parentPath !== undefined ? { parent_file_path: file.parentPath } : {}),
        // The engine reports a failing observer itself; nothing here depends on the answers.
      }).catch(() => undefined),
    ),
  );
}
