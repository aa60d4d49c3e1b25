/**
 * Provider credentials hookloop itself reads (src/cli/select-model.ts) and their kin: an API key,
 * auth token or secret of the Anthropic or OpenAI providers, and Claude Code's OAuth token. The
 * model must not be able to print them — neither with `echo $ANTHROPIC_API_KEY` in a Bash call
 * nor by reading the environment of a process it can see (`/proc/$PPID/environ`).
 */
const PROVIDER_CREDENTIAL =
  /^(?:(?:ANTHROPIC|OPENAI)_(?:\w+_)?(?:API_KEY|AUTH_TOKEN|KEY|TOKEN|SECRET)|CLAUDE_CODE_OAUTH_TOKEN)$/;

/** True for a variable name that holds a provider credential (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, …), matched by name. */
export function isProviderCredential(name: string): boolean {
  return PROVIDER_CREDENTIAL.test(name);
}

/** `env` without its provider credentials (see {@link isProviderCredential}) and without unset values; a new object. */
export function withoutProviderCredentials(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isProviderCredential(name)) kept[name] = value;
  }
  return kept;
}
