import type { z } from 'zod';
import type { HookEventName } from './event-names.js';
import { hookEventSchemas, type HookOutput } from './event-schemas.js';
import { checkHookOutput } from './validate-output.js';

/**
 * What an external hook (command stdout, http body) answered, read the way Claude Code reads it:
 * - `ok` with `output`: the known fields; `warning` names every field that was dropped;
 * - not `ok`: nothing of it counts (`error` says why) — a non-blocking failure.
 */
export type ExternalOutputRead<E extends HookEventName> =
  | { readonly ok: true; readonly output: HookOutput<E>; readonly warning?: string }
  | { readonly ok: false; readonly error: string };

/**
 * Reads an external hook's parsed JSON leniently, as Claude Code does (its output schema ignores
 * keys it does not know):
 * 1. Unknown fields, at any level (`extra`, `hookSpecificOutput.x`, `decision.reason`), are dropped;
 *    every known field still counts. The dropped names come back as one `warning`.
 * 2. A known field with a wrong type or value (`permissionDecision: "maybe"`, a number where a
 *    string belongs) makes Claude Code ignore the whole answer as a non-blocking error, and so
 *    does hookloop — except that a refusal is never lost: when what is left after dropping the bad
 *    fields still denies or blocks (`permissionDecision: "deny"`, `decision: "block"`, a
 *    PermissionRequest `behavior: "deny"`, `continue: false`), that answer counts, fail closed,
 *    and the bad fields are named in the `warning`.
 * 3. A refusal spelled loosely (`"Deny"`, `"BLOCK"`) counts as the refusal, and so does one whose
 *    `hookEventName` is missing or names another event (both named in the `warning`). Otherwise a
 *    `hookEventName` naming another event, or a value that is not an object, is an error.
 *
 * Typed in-process callbacks do not come here: they stay strict (`checkHookOutput`). Never throws.
 */
export function readExternalOutput<E extends HookEventName>(event: E, value: unknown): ExternalOutputRead<E> {
  const strict = checkHookOutput(event, value);
  if (strict.ok) return strict;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: strict.error.message };
  const schema = hookEventSchemas[event].output as unknown as z.ZodType<HookOutput<E>>;
  const copy = structuredClone(value) as Record<string, unknown>;
  const unknownFields: string[] = [];
  const badFields: string[] = [];
  let badDetails: string[] = [];
  // A refusal spelled loosely (`"Deny"`, `" block "`) or under a missing or wrong `hookEventName`
  // is still a refusal: read as the exact spelling, named in the warning (fail closed).
  for (const fixed of canonicalRefusal(event, copy)) {
    badFields.push(fixed.path);
    badDetails.push(`${fixed.path}: ${fixed.detail}`);
  }
  // Each pass removes what the schema refused; a union member may reveal further keys once its
  // discriminator is known, hence a few passes (bounded by the depth of the schemas).
  for (let pass = 0; pass < 6; pass++) {
    const parsed = schema.safeParse(copy);
    if (parsed.success)
      return { ok: true, output: parsed.data, ...warningFor(unknownFields, badFields, badDetails) };
    let removedUnknown = false;
    const wrong: z.core.$ZodIssue[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          removeAt(copy, [...issue.path, key]);
          unknownFields.push(joinPath([...issue.path, key]));
        }
        removedUnknown = true;
      } else wrong.push(issue);
    }
    if (removedUnknown) continue;
    if (
      wrong.some(
        (issue) => issue.path.length === 0 || issue.path.map(String).join('.').endsWith('hookEventName'),
      )
    )
      return { ok: false, error: strict.error.message };
    if (badFields.length === 0 && !refuses(copy)) return { ok: false, error: strict.error.message };
    // A refusal with a malformed companion field: drop the field, keep the refusal.
    badDetails = [...badDetails, ...wrong.map((issue) => `${joinPath(issue.path)}: ${issue.message}`)];
    for (const issue of wrong) {
      badFields.push(joinPath(issue.path));
      removeAt(copy, issue.path);
    }
    if (!refuses(copy)) return { ok: false, error: strict.error.message };
  }
  return { ok: false, error: strict.error.message };
}

/**
 * `text` without a leading UTF-8 byte order mark (U+FEFF). Claude Code drops it before it looks
 * for JSON, so a hook written by a Windows editor or PowerShell's `Out-File` still decides.
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const loosely = (value: unknown, word: string): boolean =>
  typeof value === 'string' && value.trim().toLowerCase() === word && value !== word;

/**
 * Rewrites, in `output`, refusals spelled other than exactly (`permissionDecision: "Deny"`,
 * `decision: "BLOCK"`, a PermissionRequest `behavior: " deny"`) to their exact spelling, and then,
 * when the answer refuses, a missing or different `hookEventName` to `event`. Returns what it changed.
 */
function canonicalRefusal(
  event: string,
  output: Record<string, unknown>,
): { path: string; detail: string }[] {
  const changed: { path: string; detail: string }[] = [];
  if (loosely(output['decision'], 'block')) {
    changed.push({ path: 'decision', detail: `${JSON.stringify(output['decision'])} read as "block"` });
    output['decision'] = 'block';
  }
  const specific = output['hookSpecificOutput'];
  if (specific === null || typeof specific !== 'object' || Array.isArray(specific)) return changed;
  const fields = specific as Record<string, unknown>;
  if (loosely(fields['permissionDecision'], 'deny')) {
    changed.push({
      path: 'hookSpecificOutput.permissionDecision',
      detail: `${JSON.stringify(fields['permissionDecision'])} read as "deny"`,
    });
    fields['permissionDecision'] = 'deny';
  }
  const decision = fields['decision'];
  if (
    decision !== null &&
    typeof decision === 'object' &&
    loosely((decision as Record<string, unknown>)['behavior'], 'deny')
  ) {
    changed.push({
      path: 'hookSpecificOutput.decision.behavior',
      detail: `${JSON.stringify((decision as Record<string, unknown>)['behavior'])} read as "deny"`,
    });
    (decision as Record<string, unknown>)['behavior'] = 'deny';
  }
  if (fields['hookEventName'] !== event && refuses(output)) {
    changed.push({
      path: 'hookSpecificOutput.hookEventName',
      detail: `${JSON.stringify(fields['hookEventName'] ?? null)} is not "${event}"`,
    });
    fields['hookEventName'] = event;
  }
  return changed;
}

/** True when the answer denies or blocks (the fields whose loss would let a refused action run). */
function refuses(output: Record<string, unknown>): boolean {
  const specific = output['hookSpecificOutput'] as
    { permissionDecision?: unknown; decision?: { behavior?: unknown } } | undefined;
  return (
    output['decision'] === 'block' ||
    output['continue'] === false ||
    specific?.permissionDecision === 'deny' ||
    (typeof specific?.decision === 'object' &&
      specific.decision !== null &&
      specific.decision.behavior === 'deny')
  );
}

function warningFor(
  unknownFields: readonly string[],
  badFields: readonly string[],
  badDetails: readonly string[],
): { warning?: string } {
  const parts: string[] = [];
  if (unknownFields.length > 0)
    parts.push(`ignored unknown field${unknownFields.length > 1 ? 's' : ''} ${unknownFields.join(', ')}`);
  if (badFields.length > 0)
    parts.push(
      `ignored malformed field${badFields.length > 1 ? 's' : ''} (${badDetails.join('; ')}) and kept the refusal`,
    );
  return parts.length > 0 ? { warning: parts.join('; ') } : {};
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.') || '(root)';
}

function removeAt(root: Record<string, unknown>, path: readonly PropertyKey[]): void {
  let current: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (current === null || typeof current !== 'object') return;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  if (current !== null && typeof current === 'object')
    delete (current as Record<PropertyKey, unknown>)[path[path.length - 1] as PropertyKey];
}
