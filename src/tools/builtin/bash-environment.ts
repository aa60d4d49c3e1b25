import type { ToolContext } from '../define-tool.js';

/**
 * Provider credentials hookloop itself reads (src/cli/select-model.ts) and their kin: the model
 * must not be able to print them with `echo $ANTHROPIC_API_KEY`. Matched by name: an API key,
 * auth token or secret of the Anthropic or OpenAI providers, and Claude Code's OAuth token.
 */
const PROVIDER_CREDENTIAL = /^(?:(?:ANTHROPIC|OPENAI)_(?:\w+_)?(?:API_KEY|AUTH_TOKEN|KEY|TOKEN|SECRET)|CLAUDE_CODE_OAUTH_TOKEN)$/;

/** True for a variable name {@link bashEnvironment} keeps out of the inherited environment (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, …). */
export function isProviderCredential(name: string): boolean {
  return PROVIDER_CREDENTIAL.test(name);
}

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
export function bashEnvironment(inherited: NodeJS.ProcessEnv, context: Pick<ToolContext, 'env' | 'withheldEnv' | 'sessionId' | 'traceparent'>): Record<string, string> {
  const withheld = new Set(context.withheldEnv ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && !isProviderCredential(name)) env[name] = value;
  }
  Object.assign(env, context.env);
  for (const name of withheld) delete env[name];
  env['CLAUDECODE'] = '1';
  env['CLAUDE_CODE_ENTRYPOINT'] = 'sdk-cli';
  if (context.sessionId !== undefined) env['CLAUDE_CODE_SESSION_ID'] = context.sessionId;
  env['HOOKLOOP'] = '1';
  if (context.traceparent !== undefined) env['TRACEPARENT'] = context.traceparent;
  return env;
}
