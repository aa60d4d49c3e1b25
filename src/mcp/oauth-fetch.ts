import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';

/** A remote server's authorization as the client uses it: a fetch that adds and renews the token, and why it could not. */
export interface McpServerAuth {
  readonly fetch: FetchLike;
  /** Set when the server needs a login hookloop could not do here (one line, no secret in it). */
  readonly needsLogin: string | undefined;
}

/** What the fetch needs of a provider beyond the SDK's interface (StoredOAuthProvider has it; the SDK's client-credentials providers do not need it). */
interface InteractiveParts {
  readonly needsLogin?: string | undefined;
  readonly canAuthorize?: boolean;
  takeAuthorizationCode?(): Promise<string | undefined>;
}

// How many times one request may be authorized again (a refresh, a login, a step-up) before its
// answer is passed on as it is: a server that keeps refusing must not make the client loop.
const MAX_REAUTHORIZATIONS = 3;

/**
 * A fetch for the MCP transports that carries OAuth (the SDK's `auth()` does discovery, PKCE,
 * registration, resource indicators, token exchange and refresh):
 * - every request gets `Authorization: Bearer <access token>` when one is stored;
 * - a 401 runs `auth()` (a refresh when there is a refresh token; else an authorization, which
 *   needs a person: without one it stops, see `needsLogin`) and sends the request again;
 * - a 403 with `error="insufficient_scope"` asks for the scopes the server names (step-up) when a
 *   person can authorize; the same demand twice, or more than three re-authorizations of one
 *   request, returns the server's answer as it is;
 * - anything else passes through untouched.
 * @throws UnauthorizedError-like Error (from the SDK) when an authorization fails outright.
 */
export async function oauthFetch(
  provider: OAuthClientProvider & InteractiveParts,
  serverUrl: URL,
  base: FetchLike = fetch,
): Promise<McpServerAuth> {
  const { auth, extractWWWAuthenticateParams } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const send = async (input: string | URL, init: RequestInit | undefined): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const tokens = await provider.tokens();
    if (tokens) headers.set('authorization', `Bearer ${tokens.access_token}`);
    return base(input, { ...init, headers });
  };
  const wrapped: FetchLike = async (input, init) => {
    let response = await send(input, init);
    let lastDemand: string | null | undefined;
    for (let attempt = 0; attempt < MAX_REAUTHORIZATIONS; attempt++) {
      const demand = response.headers.get('www-authenticate');
      const params = extractWWWAuthenticateParams(response);
      const stepUp = response.status === 403 && params.error === 'insufficient_scope';
      if (response.status !== 401 && !stepUp) break;
      // A step-up needs a person; the same demand again means the last one did not satisfy it.
      if (stepUp && (provider.canAuthorize !== true || demand === lastDemand)) break;
      lastDemand = demand;
      // A step-up must not be answered with a refresh of the old, too narrow token.
      if (stepUp) await provider.invalidateCredentials?.('tokens');
      const options = {
        serverUrl,
        ...(params.resourceMetadataUrl ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
        ...(params.scope ? { scope: params.scope } : {}),
        fetchFn: base,
      };
      let result = await auth(provider, options);
      if (result === 'REDIRECT') {
        const code = await provider.takeAuthorizationCode?.();
        if (code === undefined) return response;
        result = await auth(provider, { ...options, authorizationCode: code });
      }
      if (result !== 'AUTHORIZED') return response;
      await response.body?.cancel().catch(() => undefined);
      response = await send(input, init);
    }
    return response;
  };
  return {
    fetch: wrapped,
    get needsLogin() {
      return provider.needsLogin;
    },
  };
}
