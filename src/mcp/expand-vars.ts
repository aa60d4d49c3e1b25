import { isInProcessConfig, isStdioConfig, type McpServerConfig } from './server-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Claude Code's variable expansion in MCP configs: `${VAR}` is the variable's value and
 * `${VAR:-default}` falls back to `default` when VAR is unset. A variable that is unset and has no
 * default stays as written and is reported in `missing`, so the caller can warn (Claude Code keeps
 * the server and reports the missing variables).
 */
export function expandString(text: string, env: Env, missing: Set<string>): string {
  return text.replace(
    /\$\{([^}:]+)(?::-([^}]*))?\}/g,
    (whole, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined) return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return whole;
    },
  );
}

/**
 * Expands variables in the fields Claude Code expands: `command`, `args`, `env` values, `cwd`,
 * `url` and `headers` values (and hookloop's `oauth.crossAppAccess` strings). Returns the expanded copy and the names of unset variables without a default.
 */
export function expandServerConfig(
  config: McpServerConfig,
  env: Env,
): { config: McpServerConfig; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string) => expandString(text, env, missing);
  const expandRecord = (record: Readonly<Record<string, string>> | undefined) =>
    record === undefined
      ? undefined
      : Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value)]));
  let expanded: McpServerConfig;
  if (isInProcessConfig(config)) return { config, missing: [] };
  if (isStdioConfig(config)) {
    const envRecord = expandRecord(config.env);
    expanded = {
      ...config,
      command: expand(config.command),
      ...(config.args ? { args: config.args.map(expand) } : {}),
      ...(envRecord ? { env: envRecord } : {}),
      ...(config.cwd !== undefined ? { cwd: expand(config.cwd) } : {}),
    };
  } else {
    const headers = expandRecord(config.headers);
    // hookloop's cross-app access keys are expanded too, so that an ID token or secret can come
    // from the environment instead of a checked-in file.
    const access = config.oauth?.crossAppAccess;
    const oauth =
      access === undefined
        ? config.oauth
        : {
            ...config.oauth,
            crossAppAccess: Object.fromEntries(
              Object.entries(access).map(([key, value]) => [
                key,
                typeof value === 'string' ? expand(value) : value,
              ]),
            ) as typeof access,
          };
    expanded = {
      ...config,
      url: expand(config.url),
      ...(headers ? { headers } : {}),
      ...(oauth ? { oauth } : {}),
    };
  }
  return { config: expanded, missing: [...missing] };
}
