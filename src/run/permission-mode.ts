import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';

/** The `--permission-mode` values: hookloop's modes plus Claude Code's `auto`. */
export const CLI_PERMISSION_MODES = [...PERMISSION_MODES, 'auto'] as const;
export type CliPermissionMode = (typeof CLI_PERMISSION_MODES)[number];

/**
 * The mode a run uses: the flag, else the settings' `defaultMode`, else `default`. Claude Code's
 * `auto` mode lets its classifier approve or refuse what would need approval; hookloop has no
 * classifier, so `auto` runs as `dontAsk` (refuse what no rule or hook allows, without asking) and
 * says so through `warn`. The run's `autoMode` makes those refusals fire PermissionDenied, as the classifier's do.
 */
export function resolvePermissionMode(
  flag: CliPermissionMode | undefined,
  fromSettings: PermissionMode | undefined,
  warn: (text: string) => void,
): PermissionMode {
  if (flag === 'auto') {
    warn(
      "--permission-mode auto needs Claude Code's classifier, which hookloop does not have; running in dontAsk mode: calls that would need approval are refused (PermissionDenied hooks fire for those refusals, as for the classifier's)",
    );
    return 'dontAsk';
  }
  return flag ?? fromSettings ?? 'default';
}
