import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, describeError } from '../errors.js';
import { transcriptPathFor } from '../session/paths.js';
import type { ResumedSession } from '../session/resume.js';
import { makeDirectorySync } from '../files/make-directory.js';

/**
 * `--fork-session`: the resumed session goes on under a new id. Its transcript is copied to the new
 * id's file (every line's `sessionId` rewritten; the folder of its subagents' transcripts copied
 * alongside), and the run writes there: the original session stays as it was and can be resumed
 * again. Returns the session to resume.
 * @throws ConfigError naming the file when the copy cannot be written (nothing is left half-written: the copy is renamed into place).
 */
export function forkSession(
  resumed: ResumedSession,
  configDir: string,
  projectDir: string,
  newId: string = randomUUID(),
): ResumedSession {
  const target = transcriptPathFor(configDir, path.resolve(projectDir), newId);
  try {
    makeDirectorySync(path.dirname(target));
    const lines = fs
      .readFileSync(resumed.transcriptPath, 'utf8')
      .split('\n')
      .map((line) => renamedLine(line, resumed.sessionId, newId));
    const partial = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(partial, lines.join('\n'));
    fs.renameSync(partial, target);
    const subagents = path.join(
      path.dirname(resumed.transcriptPath),
      path.basename(resumed.transcriptPath, '.jsonl'),
    );
    if (fs.existsSync(subagents))
      fs.cpSync(subagents, path.join(path.dirname(target), path.basename(target, '.jsonl')), {
        recursive: true,
      });
  } catch (error) {
    throw new ConfigError(
      `--fork-session: cannot copy ${resumed.transcriptPath} to ${target}: ${describeError(error)}`,
      { field: '--fork-session', file: target },
    );
  }
  return { ...resumed, sessionId: newId, transcriptPath: target };
}

/** One transcript line with its session id replaced; a line that is not JSON is kept as it is. */
function renamedLine(line: string, oldId: string, newId: string): string {
  if (line.trim() === '') return line;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry['sessionId'] === oldId) entry['sessionId'] = newId;
    return JSON.stringify(entry);
  } catch {
    return line; // a damaged line stays what it was: the reader skips it with a warning, as in the original
  }
}
