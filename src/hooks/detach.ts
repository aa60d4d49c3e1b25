import { deepFreeze } from '../messages/messages.js';

/**
 * A frozen copy of a hook's value that the hook can no longer change. Plain objects and arrays are
 * copied level by level and primitives shared: strings are immutable, and structuredClone would
 * copy every byte of a large tool output (milliseconds per MB) for nothing. Anything else (a Date,
 * a Map) is structured-cloned.
 */
export function detached<T>(value: T): T {
  return deepFreeze(detach(value)) as T;
}

function detach(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(detach);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = detach(field);
  return copy;
}
