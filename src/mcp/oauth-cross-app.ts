import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CrossAppAccessConfig } from './server-config.js';

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
// An identity provider that does not answer within this time fails the connection, as a server
// that does not start would.
const IDP_TIMEOUT_MS = 30_000;

/**
 * A failure of the identity-provider half of cross-app access, worded for the one warning the
 * user sees. Its message never contains a token.
 */
export class CrossAppAccessError extends Error {
  override readonly name = 'CrossAppAccessError';
}

/**
 * Cross-app access (Enterprise-Managed Authorization, SEP-990) for one remote MCP server, as the
 * SDK's `OAuthClientProvider` for a flow without a browser:
 * 1. at the identity provider, an RFC 8693 token exchange of the user's ID token
 *    (`oauth.crossAppAccess.idToken`) for an ID-JAG whose audience is the MCP server's authorization
 *    server (its issuer, from the SDK's discovery) and whose resource is the MCP server;
 * 2. at that authorization server, an RFC 7523 JWT-bearer grant with the ID-JAG as assertion,
 *    authenticated as `oauth.clientId` / `oauth.clientSecret` — the SDK sends it (`prepareTokenRequest`).
 *
 * Contract:
 * - Access tokens are kept in memory for the process only; a 401 runs both steps again.
 * - Fails closed: an identity provider that refuses, answers something other than an ID-JAG, or
 *   issues one for another audience makes `prepareTokenRequest` throw a {@link CrossAppAccessError},
 *   and nothing is sent to the authorization server.
 */
export class CrossAppAccessProvider implements OAuthClientProvider {
  private current: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  /**
   * @param serverUrl the MCP server's URL (the resource when its metadata names none)
   * @param clientId the client registered at the MCP server's authorization server
   * @param clientSecret its secret, sent as HTTP Basic (none: a public client)
   * @param config the identity provider's side (`oauth.crossAppAccess`)
   * @param fetchFn used for the identity provider's requests (default: global fetch)
   */
  constructor(
    private readonly serverUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string | undefined,
    private readonly config: CrossAppAccessConfig,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'hookloop',
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: this.clientSecret !== undefined ? 'client_secret_basic' : 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return {
      client_id: this.clientId,
      ...(this.clientSecret !== undefined ? { client_secret: this.clientSecret } : {}),
    };
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new CrossAppAccessError('cross-app access never sends a person to an authorization page');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new CrossAppAccessError('cross-app access uses no authorization code');
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'tokens' || scope === 'all') this.current = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
  }

  /** The JWT-bearer grant, after the ID-JAG was obtained from the identity provider. @throws CrossAppAccessError */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const audience =
      this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    if (audience === undefined)
      throw new CrossAppAccessError(
        "cross-app access: the MCP server's authorization server was not discovered",
      );
    const resource = this.discovery?.resourceMetadata?.resource ?? this.serverUrl;
    const assertion = await this.exchangeIdToken(audience, resource, scope);
    return new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion,
      ...(scope ? { scope } : {}),
    });
  }

  /** Step 1: the ID token for an ID-JAG at the identity provider. @throws CrossAppAccessError */
  private async exchangeIdToken(
    audience: string,
    resource: string,
    scope: string | undefined,
  ): Promise<string> {
    const endpoint = await this.idpTokenEndpoint();
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token: this.config.idToken,
      subject_token_type: ID_TOKEN_TYPE,
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience,
      resource,
      ...(scope ? { scope } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (this.config.idpClientSecret !== undefined) {
      const pair = `${encodeURIComponent(this.config.idpClientId)}:${encodeURIComponent(this.config.idpClientSecret)}`;
      headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      body.set('client_id', this.config.idpClientId);
    }
    const answer = await this.request(endpoint, { method: 'POST', headers, body });
    if (!answer.ok)
      throw new CrossAppAccessError(
        `cross-app access: the identity provider refused the token exchange (HTTP ${answer.status}${oauthError(answer.json)})`,
      );
    const issued = answer.json as { access_token?: unknown; issued_token_type?: unknown } | undefined;
    if (typeof issued?.access_token !== 'string' || issued.issued_token_type !== ID_JAG_TOKEN_TYPE)
      throw new CrossAppAccessError(
        `cross-app access: the identity provider did not issue an ID-JAG (issued_token_type ${JSON.stringify(issued?.issued_token_type ?? null)})`,
      );
    const granted = jwtAudiences(issued.access_token);
    if (granted !== undefined && !granted.some((value) => sameUrl(value, audience)))
      throw new CrossAppAccessError(
        `cross-app access: the identity provider issued an ID-JAG for ${granted.map((value) => JSON.stringify(value)).join(', ')}, not for this server's authorization server "${audience}"`,
      );
    return issued.access_token;
  }

  /** `idpTokenEndpoint`, or the `token_endpoint` of `idpIssuer`'s OpenID configuration. */
  private async idpTokenEndpoint(): Promise<string> {
    if (this.config.idpTokenEndpoint !== undefined) return this.config.idpTokenEndpoint;
    const issuer = this.config.idpIssuer!.replace(/\/+$/, '');
    const answer = await this.request(`${issuer}/.well-known/openid-configuration`, { method: 'GET' });
    const endpoint = (answer.json as { token_endpoint?: unknown } | undefined)?.token_endpoint;
    if (!answer.ok || typeof endpoint !== 'string')
      throw new CrossAppAccessError(
        `cross-app access: the identity provider ${issuer} has no token_endpoint in its OpenID configuration (HTTP ${answer.status})`,
      );
    return endpoint;
  }

  private async request(
    url: string,
    init: RequestInit,
  ): Promise<{ ok: boolean; status: number; json: unknown }> {
    let response: Response;
    try {
      response = await this.fetchFn(url, { ...init, signal: AbortSignal.timeout(IDP_TIMEOUT_MS) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CrossAppAccessError(
        `cross-app access: the identity provider at ${url} could not be reached: ${reason}`,
      );
    }
    const json: unknown = await response.json().catch(() => undefined);
    return { ok: response.ok, status: response.status, json };
  }
}

/** ` invalid_grant: <description>` from an OAuth error body, or nothing. */
function oauthError(body: unknown): string {
  const { error, error_description: description } = (body ?? {}) as Record<string, unknown>;
  if (typeof error !== 'string') return '';
  return typeof description === 'string' ? ` ${error}: ${description}` : ` ${error}`;
}

/** The `aud` claim of a JWT (not verified: only the issuer's audience can verify it), or undefined when unreadable. */
function jwtAudiences(jwt: string): string[] | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      aud?: unknown;
    };
    if (typeof payload.aud === 'string') return [payload.aud];
    if (Array.isArray(payload.aud))
      return payload.aud.filter((value): value is string => typeof value === 'string');
    return undefined;
  } catch {
    return undefined;
  }
}

// An issuer with and without its trailing slash is the same authorization server.
function sameUrl(left: string, right: string): boolean {
  return left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
}
