import { withoutProviderCredentials } from '../../process/provider-credentials.js';
import type { ToolContext } from '../define-tool.js';

export { isProviderCredential } from '../../process/provider-credentials.js';

/**
 * The environment of a Bash process (foreground and background):
 * 1. `inherited` (normally `process.env`) without provider credentials (see isProviderCredential)
 *    and without the names in `context.withheldEnv` (`sandbox.credentials.envVars` with `mode: "deny"`);
 * 2. `context.env` on top (`RunOptions.env`, `CLAUDE_ENV_FILE` exports: set on purpose, so kept),
 *    except the withheld names, which never reach a tool process;
 * 3. the variables Claude Code gives its Bash processes: `CLAUDECODE=1`,
 *    `CLAUDE_CODE_ENTRYPOINT=sdk-cli` (the `-p` value, as for hooks), `CLAUDE_CODE_SESSION_ID`
 *    (when the context knows the session), and `HOOKLOOP=1`;
 * 4. `TRACEPARENT` (the call's span) when the run is traced, so the command's own spans join the trace.
 * Hooks are not affected: they get the whole environment, as in Claude Code.
 */
export function bashEnvironment(
  inherited: NodeJS.ProcessEnv,
  context: Pick<ToolContext, 'env' | 'withheldEnv' | 'sessionId' | 'traceparent'>,
): Record<string, string> {
  const withheld = new Set(context.withheldEnv ?? []);
  const env = withoutProviderCredentials(inherited);
  Object.assign(env, context.env);
  for (const name of withheld) delete env[name];
  env['CLAUDECODE'] = '1';
  env['CLAUDE_CODE_ENTRYPOINT'] = 'sdk-cli';
  if (context.sessionId !== undefined) env['CLAUDE_CODE_SESSION_ID'] = context.sessionId;
  env['HOOKLOOP'] = '1';
  if (context.traceparent !== undefined) env['TRACEPARENT'] = context.traceparent;
  return env;
}
