/**
 * Naming a place in a settings document for one-line messages: the JSON path of a field and a
 * short description of the value found there.
 */

/** `hooks.PreToolUse[0].hooks[0].timeout`; keys that are not identifiers are quoted (`["a b"]`). */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** The value at `segments` inside `data` (undefined where the path leaves the data). */
export function valueAt(data: unknown, segments: readonly PropertyKey[]): unknown {
  let value = data;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** A value as the "got" half of a message: `nothing`, `an array`, `an object`, or the JSON text (cut at 60 characters). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  return shown.length > 60 ? `${shown.slice(0, 57)}..."` : shown;
}
