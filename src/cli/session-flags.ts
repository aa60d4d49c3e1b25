import { ConfigError } from '../errors.js';
import type { CompactionOptions } from '../loop/compaction.js';
import { findTranscript, latestTranscript, resolveConfigDir } from '../session/paths.js';
import { loadSession, type ResumedSession } from '../session/resume.js';
import { requireSessionId } from '../session/session-id.js';

/** What the session flags and variables ask for: where sessions live, which one to continue, when to compact. */
export interface SessionFlags {
  readonly configDir: string;
  readonly resume?: ResumedSession;
  readonly compaction?: CompactionOptions;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads `--session-id ID` (checked: a UUID), `--continue` (the latest session of `projectDir`), `--resume ID` (that session, looked up
 * in this project first, then in any), `HOOKLOOP_HOME` / `CLAUDE_CONFIG_DIR` (the session folder,
 * default `<homeDir>/.claude`) and `HOOKLOOP_CONTEXT_WINDOW` (tokens; auto-compaction thresholds
 * follow it, see CompactionOptions).
 * @throws ConfigError when there is no session to continue, an id is not a UUID or is unknown,
 *   `--session-id` comes with `--continue`/`--resume`, both of those are given, or the window is not
 *   a whole number.
 */
export function readSessionFlags(
  flags: {
    readonly continue: boolean;
    readonly resume: string | undefined;
    readonly sessionId?: string | undefined;
  },
  place: { readonly projectDir: string; readonly homeDir: string; readonly env: Env },
): SessionFlags {
  // The id names the transcript file and the session's folders: anything but a UUID is refused before a path is built from it.
  if (flags.sessionId !== undefined) requireSessionId(flags.sessionId, '--session-id');
  const configDir = resolveConfigDir(undefined, place.env, place.homeDir);
  const window = place.env['HOOKLOOP_CONTEXT_WINDOW'];
  let compaction: CompactionOptions | undefined;
  if (window !== undefined && window !== '') {
    const tokens = Number(window);
    if (!Number.isInteger(tokens) || tokens < 10_000)
      throw new ConfigError(
        `HOOKLOOP_CONTEXT_WINDOW: expected a whole number of tokens ≥ 10000, got "${window}"`,
        { field: 'HOOKLOOP_CONTEXT_WINDOW' },
      );
    compaction = { contextWindow: tokens };
  }
  // As in Claude Code: a resumed session keeps its own id, so a second id would be silently ignored.
  if (flags.sessionId !== undefined && (flags.continue || flags.resume !== undefined)) {
    throw new ConfigError(
      `--session-id cannot be combined with ${flags.continue ? '--continue' : '--resume'}: a continued session keeps its own id`,
      { field: '--session-id' },
    );
  }
  if (flags.continue && flags.resume !== undefined)
    throw new ConfigError(
      '--continue and --resume cannot be combined: --continue takes the latest session, --resume ID a given one',
      { field: '--resume' },
    );
  let transcript: string | undefined;
  if (flags.continue) {
    transcript = latestTranscript(configDir, place.projectDir);
    if (transcript === undefined)
      throw new ConfigError(
        `--continue: no session to continue in ${place.projectDir} (none under ${configDir})`,
        { field: '--continue' },
      );
  } else if (flags.resume !== undefined) {
    requireSessionId(flags.resume, '--resume');
    transcript = findTranscript(configDir, place.projectDir, flags.resume);
    if (transcript === undefined)
      throw new ConfigError(`--resume: no session ${flags.resume} under ${configDir}`, { field: '--resume' });
  }
  return {
    configDir,
    ...(transcript !== undefined ? { resume: loadSession(transcript) } : {}),
    ...(compaction ? { compaction } : {}),
  };
}
