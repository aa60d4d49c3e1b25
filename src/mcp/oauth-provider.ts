import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthStore } from './oauth-store.js';
import type { McpOAuthConfig } from './server-config.js';

/** How an authorization is carried out when one is needed: the redirect URI, and a person sent to the page. */
export interface Authorizer {
  readonly redirectUrl: string;
  /** Sends the person to `url` and resolves with the `code` of the redirect whose `state` matches. */
  authorize(url: URL, state: string): Promise<string>;
}

/**
 * hookloop's OAuth client for one remote MCP server (the SDK's `OAuthClientProvider`): the client
 * registration (dynamic, a client ID metadata document, or `oauth.clientId` configured) and the
 * tokens are kept in an {@link OAuthStore}; the code verifier, state and discovery only in memory.
 *
 * Contract:
 * - Without an `authorizer`, an authorization that needs a person does not happen: `needsLogin`
 *   says so and the SDK's `auth()` answers `REDIRECT` (the caller fails the connection with a
 *   pointer to `hookloop mcp login`). A refresh needs no person and always happens.
 * - Tokens are only ever handed to the SDK (which sends them in the Authorization header); no
 *   message this class builds contains one.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set when an authorization needed a person and none could be asked (see the contract). */
  needsLogin: string | undefined;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private pendingCode: Promise<string> | undefined;
  private unsaved: OAuthClientInformationMixed | undefined;

  constructor(
    private readonly serverName: string,
    private readonly url: string,
    private readonly config: McpOAuthConfig,
    private readonly store: OAuthStore,
    private readonly authorizer?: Authorizer,
  ) {}

  get redirectUrl(): string {
    if (this.authorizer) return this.authorizer.redirectUrl;
    const registered = (
      this.store.read(this.serverName, this.url).clientInformation as { redirect_uris?: string[] } | undefined
    )?.redirect_uris?.[0];
    return registered ?? `http://127.0.0.1:${this.config.callbackPort ?? 0}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'hookloop',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.config.scope !== undefined ? { scope: this.config.scope } : {}),
    };
  }

  /** Whether the server has tokens stored (it was logged in to before). */
  get hasTokens(): boolean {
    return this.store.read(this.serverName, this.url).tokens !== undefined;
  }

  /** Whether a person can be sent to authorize (a login, or a step-up the session may do). */
  get canAuthorize(): boolean {
    return this.authorizer !== undefined;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.config.clientId !== undefined)
      return {
        client_id: this.config.clientId,
        ...(this.config.clientSecret !== undefined ? { client_secret: this.config.clientSecret } : {}),
      };
    return this.store.read(this.serverName, this.url).clientInformation ?? this.unsaved;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    // A configured client is the user's: nothing about it is stored.
    if (this.config.clientId !== undefined) return;
    // Without a person to authorize, a registration leads nowhere (and names no redirect URI a
    // login could listen on): it is kept for this process only.
    if (!this.authorizer) {
      this.unsaved = information;
      return;
    }
    this.store.write(this.serverName, this.url, { clientInformation: information });
  }

  tokens(): OAuthTokens | undefined {
    return this.store.read(this.serverName, this.url).tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.needsLogin = undefined;
    this.store.write(this.serverName, this.url, { tokens, savedAt: Date.now() });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.authorizer) {
      this.needsLogin = 'the server needs an authorization that only a person can give';
      return;
    }
    const state = authorizationUrl.searchParams.get('state') ?? this.expectedState ?? '';
    this.pendingCode = this.authorizer.authorize(authorizationUrl, state);
    // The caller awaits it through takeAuthorizationCode; a rejection is never left unhandled.
    this.pendingCode.catch(() => undefined);
  }

  /** The code of the authorization `redirectToAuthorization` started, or undefined when none was. @throws its failure. */
  async takeAuthorizationCode(): Promise<string | undefined> {
    const pending = this.pendingCode;
    this.pendingCode = undefined;
    return pending;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error('no PKCE code verifier: the authorization was not started here');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'tokens' || scope === 'all')
      this.store.write(this.serverName, this.url, { tokens: undefined, savedAt: undefined });
    if (scope === 'client' || scope === 'all')
      this.store.write(this.serverName, this.url, { clientInformation: undefined });
  }
}
