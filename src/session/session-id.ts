import { ConfigError } from '../errors.js';

/**
 * Session ids are UUIDs, as Claude Code requires (`--session-id` "must be a valid UUID"). The id
 * names the transcript file (`<session>.jsonl`) and the session's folders (tool results, subagent
 * transcripts, `session-env/<session>/`), so a value that is not a UUID could name a path outside
 * them (`../../x`): it is refused before anything is written.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An example shown in error messages. */
const EXAMPLE = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** True when `value` is a UUID (8-4-4-4-12 hexadecimal digits, any case). */
export function isSessionId(value: string): boolean {
  return UUID.test(value);
}

/**
 * Returns `value` when it is a session id (a UUID).
 * @param field what the user set, named in the error: `--session-id`, `--resume`, `sessionId`.
 * @throws ConfigError `<field>: "<value>" is not a session id (expected a UUID like …)`.
 */
export function requireSessionId(value: string, field: string): string {
  if (isSessionId(value)) return value;
  throw new ConfigError(
    `${field}: ${JSON.stringify(value)} is not a session id (expected a UUID like ${EXAMPLE})`,
    { field },
  );
}
