import path from 'node:path';
import { ConfigError } from '../errors.js';
import { PERMISSION_MODES, type PermissionMode } from './types.js';

/**
 * A permission mode as the policy takes it from settings or a hook.
 * @throws ConfigError (field `permissions.defaultMode`) for a name that is not one of PERMISSION_MODES.
 */
export function checkMode(mode: PermissionMode): PermissionMode {
  if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(
      `unknown permission mode ${JSON.stringify(mode)}; expected one of ${PERMISSION_MODES.join(', ')}`,
      { field: 'permissions.defaultMode' },
    );
  }
  return mode;
}

/**
 * The absolute paths a file tool's input names when the tool does not say (`filePaths`): its
 * `file_path`, `notebook_path` or `path`; Grep and Glob without one search `cwd`.
 */
export function defaultPaths(fields: Record<string, unknown>, toolName: string, cwd: string): string[] {
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') return [path.resolve(cwd, value)];
  }
  return toolName === 'Glob' || toolName === 'Grep' ? [path.resolve(cwd)] : [];
}
