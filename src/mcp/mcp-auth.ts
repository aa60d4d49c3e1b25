import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { openInBrowser, startOAuthCallback } from './oauth-callback.js';
import { oauthFetch, type McpServerAuth } from './oauth-fetch.js';
import { StoredOAuthProvider, type Authorizer } from './oauth-provider.js';
import type { OAuthStore } from './oauth-store.js';
import { isRemoteConfig, type McpServerEntry } from './server-config.js';

/** Where tokens live and who may authorize (a login; a session only for a step-up, see {@link sessionAuth}). */
export interface McpAuthOptions {
  readonly store: OAuthStore;
  readonly authorizer?: Authorizer | undefined;
}

/**
 * The authorization of one remote server: cross-app access when it has `oauth.crossAppAccess`
 * (see oauth-cross-app.ts), a client-credentials grant when its `oauth.grantType` says so (a client secret, or a private-key JWT with `oauth.privateKey`), else the authorization
 * code flow with PKCE through a {@link StoredOAuthProvider}. Undefined for a stdio server.
 */
export async function serverAuth(
  entry: McpServerEntry,
  options: McpAuthOptions,
): Promise<McpServerAuth | undefined> {
  const config = entry.config;
  if (!isRemoteConfig(config)) return undefined;
  const oauth = config.oauth ?? {};
  const url = new URL(config.url);
  if (oauth.crossAppAccess !== undefined) {
    const { CrossAppAccessProvider } = await import('./oauth-cross-app.js');
    return crossAppFailures(
      await oauthFetch(
        new CrossAppAccessProvider(
          config.url,
          oauth.clientId ?? '',
          oauth.clientSecret,
          oauth.crossAppAccess,
        ),
        url,
      ),
    );
  }
  if (oauth.grantType === 'client_credentials') {
    const { ClientCredentialsProvider, PrivateKeyJwtProvider } =
      await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    const clientId = oauth.clientId ?? '';
    const provider: OAuthClientProvider =
      oauth.privateKey !== undefined
        ? new PrivateKeyJwtProvider({
            clientId,
            privateKey: oauth.privateKey,
            algorithm: oauth.signingAlgorithm ?? 'ES256',
            clientName: 'hookloop',
          })
        : new ClientCredentialsProvider({
            clientId,
            clientSecret: oauth.clientSecret ?? '',
            clientName: 'hookloop',
            ...(oauth.scope !== undefined ? { scope: oauth.scope } : {}),
          });
    return oauthFetch(provider, url);
  }
  return oauthFetch(
    new StoredOAuthProvider(entry.name, config.url, oauth, options.store, options.authorizer),
    url,
  );
}

/**
 * Words a failed cross-app grant for the user: the identity provider's refusals already say so; a
 * refusal by the MCP server's authorization server (the SDK's OAuth error) is named as one.
 */
async function crossAppFailures(auth: McpServerAuth): Promise<McpServerAuth> {
  const { OAuthError } = await import('@modelcontextprotocol/sdk/server/auth/errors.js');
  return {
    fetch: async (input, init) => {
      try {
        return await auth.fetch(input, init);
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        throw new Error(
          `cross-app access: the authorization server refused the ID-JAG grant (${error.message})`,
          { cause: error },
        );
      }
    },
    get needsLogin() {
      return auth.needsLogin;
    },
  };
}

/**
 * A session's authorization of a remote server: never a first login (that is `hookloop mcp login`;
 * a warning says so), but a scope step-up for a server already logged in to may send the person
 * to the browser when `BROWSER` names one, on the redirect URI registered at login.
 */
export function sessionAuth(
  store: OAuthStore,
  env: Readonly<Record<string, string | undefined>>,
  write: (text: string) => void,
): (entry: McpServerEntry) => Promise<McpServerAuth | undefined> {
  return async (entry) => {
    if (!isRemoteConfig(entry.config)) return undefined;
    const stored = store.read(entry.name, entry.config.url);
    const registered = (stored.clientInformation as { redirect_uris?: string[] } | undefined)
      ?.redirect_uris?.[0];
    const port =
      registered !== undefined ? Number(new URL(registered).port) : (entry.config.oauth?.callbackPort ?? 0);
    const mayStepUp = stored.tokens !== undefined && Boolean(env['BROWSER']) && port > 0;
    return serverAuth(entry, {
      store,
      ...(mayStepUp
        ? { authorizer: loopbackAuthorizer(`http://127.0.0.1:${port}/callback`, env, write) }
        : {}),
    });
  };
}

// A person gets five minutes to finish an authorization in the browser.
const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

/**
 * An authorizer that listens on the port of `redirectUrl` only while an authorization is under way,
 * sends the person to the page (see `openInBrowser`) and waits for the redirect.
 */
export function loopbackAuthorizer(
  redirectUrl: string,
  env: Readonly<Record<string, string | undefined>>,
  write: (text: string) => void,
  timeoutMs = AUTHORIZATION_TIMEOUT_MS,
): Authorizer {
  return {
    redirectUrl,
    authorize: async (url, state) => {
      const callback = await startOAuthCallback(Number(new URL(redirectUrl).port));
      try {
        openInBrowser(url.href, env, write);
        return await callback.waitForCode(state, timeoutMs);
      } finally {
        await callback.close();
      }
    },
  };
}
