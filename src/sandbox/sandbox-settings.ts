import { z } from 'zod';

/**
 * The `sandbox` key of a settings file, with Claude Code's names and defaults (Claude Code's
 * settings reference, "Sandbox settings"). Every field is optional; unknown keys are kept (a
 * complete Claude Code settings file loads), and only the fields below are read:
 *
 * - `enabled` (default false): run Bash commands inside the OS sandbox (`@anthropic-ai/sandbox-runtime`:
 *   bubblewrap + socat on Linux, Seatbelt on macOS).
 * - `failIfUnavailable` (default false): when the sandbox cannot start (bubblewrap missing, an
 *   unsupported platform), refuse to run instead of warning and running Bash unsandboxed.
 * - `autoAllowBashIfSandboxed` (default true): a sandboxed Bash command runs without approval in
 *   the modes that would ask; deny and ask rules, plan mode and protected paths still apply.
 * - `allowUnsandboxedCommands` (default true): whether the Bash input `dangerouslyDisableSandbox`
 *   may take a command out of the sandbox (it then needs approval like any unsandboxed command);
 *   when false the parameter is ignored and the command runs sandboxed.
 * - `excludedCommands`: commands that always run outside the sandbox (`docker`, `git push`,
 *   `npm:*`): a command whose words start with one of them; it goes through the usual approval.
 * - `filesystem.allowWrite` / `denyWrite` / `denyRead` / `allowRead`: paths (`~/` = home,
 *   relative = the project directory) added to the default policy: writes reach the workspace
 *   roots and the session's temp dir only; reads reach everything not denied.
 * - `network.allowedDomains` / `deniedDomains` (`example.com`, `*.example.com`, `host:port`):
 *   without `allowedDomains` no domain is reachable from the sandbox. `allowUnixSockets`,
 *   `allowAllUnixSockets`, `allowLocalBinding` as in Claude Code.
 * - `credentials.envVars` / `credentials.files`: `{ name | path, mode: "deny" | "mask" }` entries
 *   handed to the runtime; a `deny` variable is also removed from unsandboxed Bash processes.
 * - `enableWeakerNestedSandbox`, `ignoreViolations`, `bwrapPath`, `socatPath`: passed to the runtime.
 *
 * Errors read `<file>: sandbox.<field>: expected <message>, got <value>` (see the settings loader).
 */

const flag = z.boolean({ error: 'true or false' });
const textList = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
const port = z
  .number({ error: 'a port number' })
  .int({ error: 'a port number' })
  .min(1, { error: 'a port number' })
  .max(65_535, { error: 'a port number' });
const credentialMode = z.enum(['deny', 'mask'], { error: 'one of "deny", "mask"' });

/** `sandbox.filesystem`. */
export const sandboxFilesystemSchema = z.looseObject(
  {
    allowWrite: textList.optional(),
    denyWrite: textList.optional(),
    denyRead: textList.optional(),
    allowRead: textList.optional(),
  },
  { error: 'an object' },
);

/** `sandbox.network`. */
export const sandboxNetworkSchema = z.looseObject(
  {
    allowedDomains: textList.optional(),
    deniedDomains: textList.optional(),
    allowUnixSockets: textList.optional(),
    allowAllUnixSockets: flag.optional(),
    allowLocalBinding: flag.optional(),
    httpProxyPort: port.optional(),
    socksProxyPort: port.optional(),
  },
  { error: 'an object' },
);

/** `sandbox.credentials`: the runtime's own entries, checked for the fields hookloop reads. */
export const sandboxCredentialsSchema = z.looseObject(
  {
    envVars: z
      .array(
        z.looseObject(
          {
            name: z.string({ error: 'a string' }).min(1, { error: 'a non-empty string' }),
            mode: credentialMode,
          },
          { error: 'an object with "name" and "mode"' },
        ),
        { error: 'an array' },
      )
      .optional(),
    files: z
      .array(
        z.looseObject(
          {
            path: z.string({ error: 'a string' }).min(1, { error: 'a non-empty string' }),
            mode: credentialMode,
          },
          { error: 'an object with "path" and "mode"' },
        ),
        { error: 'an array' },
      )
      .optional(),
  },
  { error: 'an object' },
);

/** `sandbox` (see the module comment for each field). */
export const sandboxSettingsSchema = z.looseObject(
  {
    enabled: flag.optional(),
    failIfUnavailable: flag.optional(),
    autoAllowBashIfSandboxed: flag.optional(),
    allowUnsandboxedCommands: flag.optional(),
    excludedCommands: textList.optional(),
    filesystem: sandboxFilesystemSchema.optional(),
    network: sandboxNetworkSchema.optional(),
    credentials: sandboxCredentialsSchema.optional(),
    enableWeakerNestedSandbox: flag.optional(),
    ignoreViolations: z
      .record(z.string(), textList, { error: 'an object mapping command patterns to path lists' })
      .optional(),
    bwrapPath: z.string({ error: 'an absolute path' }).optional(),
    socatPath: z.string({ error: 'an absolute path' }).optional(),
  },
  { error: 'an object' },
);

/** The `sandbox` settings as written (every field optional). */
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;

/**
 * Merges the `sandbox` key of a later settings file over an earlier one, as Claude Code merges
 * settings scopes: a scalar of the later file wins, lists are concatenated (duplicates dropped),
 * and nested objects (`filesystem`, `network`, `credentials`) merge field by field.
 */
export function mergeSandboxSettings(
  earlier: SandboxSettings | undefined,
  later: SandboxSettings | undefined,
): SandboxSettings | undefined {
  if (earlier === undefined) return later;
  if (later === undefined) return earlier;
  return mergeObjects(earlier, later) as SandboxSettings;
}

function mergeObjects(
  earlier: Record<string, unknown>,
  later: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const previous = merged[key];
    if (Array.isArray(previous) && Array.isArray(value)) merged[key] = uniqueEntries([...previous, ...value]);
    else if (isPlainObject(previous) && isPlainObject(value)) merged[key] = mergeObjects(previous, value);
    else merged[key] = value;
  }
  return merged;
}

function uniqueEntries(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
