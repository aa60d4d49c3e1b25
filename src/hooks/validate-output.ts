import type { z } from 'zod';
import { HookContractError } from '../errors.js';
import type { HookEventName } from './event-names.js';
import { hookEventSchemas, type HookOutput } from './event-schemas.js';

/** Result of checking one hook answer against its event's output schema. */
export type OutputCheck<E extends HookEventName> =
  | { readonly ok: true; readonly output: HookOutput<E> }
  | { readonly ok: false; readonly error: HookContractError };

/**
 * Checks a hook's answer against the output schema of `event` (Claude Code hook protocol).
 * `undefined`/`null` is "no opinion" and passes as `{}`. A field the event does not honour, a wrong
 * type or a `hookEventName` naming another event yields a `HookContractError` naming every bad field,
 * e.g. `Stop hook output: hookSpecificOutput.updatedInput: not allowed for Stop`.
 * Never throws.
 */
export function checkHookOutput<E extends HookEventName>(event: E, value: unknown): OutputCheck<E> {
  if (value === undefined || value === null) return { ok: true, output: {} as HookOutput<E> };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      error: new HookContractError(
        event,
        [],
        `expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
      ),
    };
  }
  const schema = hookEventSchemas[event].output as unknown as z.ZodType<HookOutput<E>>;
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, output: parsed.data };
  const fields: string[] = [];
  const details = parsed.error.issues.map((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((key) => (at ? `${at}.${key}` : key));
      fields.push(...names);
      return `${names.join(', ')}: not allowed for ${event}`;
    }
    fields.push(at);
    if (issue.code === 'invalid_value' && at.endsWith('hookEventName')) {
      return `${at}: must be "${event}", got ${JSON.stringify(valueAt(value, issue.path))}`;
    }
    return `${at || '(root)'}: ${issue.message}, got ${JSON.stringify(valueAt(value, issue.path)) ?? 'undefined'}`;
  });
  return { ok: false, error: new HookContractError(event, fields, details.join('; ')) };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
