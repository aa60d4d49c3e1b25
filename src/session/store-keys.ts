import { ConfigError } from '../errors.js';
import { safePathPart } from './path-part.js';
import { projectSlug } from './paths.js';
import type { SessionKey } from './session-store.js';

/*
 * How hookloop's sessions are named in a session store, the same way the Claude Agent SDK names
 * them, so one store can hold transcripts from both: the project folder's slug as the scope, the
 * session id, and for a subagent the path of its file under the session's folder without `.jsonl`.
 */

/**
 * The default `projectKey` of a project: Claude Code's folder name for it under `projects/`
 * (`/work/app` → `-work-app`, see projectSlug), which is also the Agent SDK's default.
 */
export function projectKeyFor(projectDir: string): string {
  return projectSlug(projectDir);
}

/** The `subpath` of subagent `agentId`'s transcript: `subagents/agent-<id>` (the id made safe as a path part). */
export function subagentSubpath(agentId: string): string {
  return `subagents/agent-${safePathPart(agentId)}`;
}

/**
 * Checks a key before a store uses it as a storage name: `projectKey` and `sessionId` non-empty
 * strings other than `.` and `..`,
 * and `subpath`, when given, relative segments joined by `/` (none empty, `.` or `..`, no `\` or
 * NUL), so no key can name something outside its session.
 * @throws ConfigError naming the field and what was expected.
 */
export function checkSessionKey(key: SessionKey): void {
  for (const field of ['projectKey', 'sessionId'] as const) {
    const value: unknown = key[field];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..')
      throw new ConfigError(
        `session store key: ${field} must be a non-empty string other than "." and ".."`,
        {
          field,
        },
      );
  }
  if (key.subpath === undefined) return;
  const segments = typeof key.subpath === 'string' ? key.subpath.split('/') : [''];
  if (
    segments.some(
      (segment) => segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment),
    )
  )
    throw new ConfigError(
      `session store key: subpath ${JSON.stringify(key.subpath)} must be relative path segments joined by "/" (none empty, "." or "..")`,
      { field: 'subpath' },
    );
}
