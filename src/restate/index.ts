// First: the SDK needs Promise.withResolvers, which Node 20 lacks.
import './with-resolvers.js';
import * as http2 from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import { sessionObject, SESSION_OBJECT, type SessionOptionsFactory } from './session-object.js';

/**
 * `hookloop/restate`: durable hookloop sessions on a Restate server. A session is a virtual object
 * keyed by session id (see sessionObject for its handlers); `serveSessions` starts a worker
 * endpoint for it, which a Restate server is told about (`POST <admin>/deployments {"uri": …}`).
 * Requires the optional peer dependency `@restatedev/restate-sdk`.
 */
export {
  sessionObject,
  SESSION_OBJECT,
  type DurablePromptResult,
  type DurableSessionStatus,
  type SessionOptionsFactory,
} from './session-object.js';
export { restateDurability, PENDING_KEY, type PendingState } from './restate-durability.js';

/** A running worker endpoint: the port it listens on (127.0.0.1 unless `host` said otherwise) and `close`. */
export interface SessionWorker {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts an HTTP/2 endpoint serving the session object built from `options` on `port` (0: a free
 * one) and `host` (default 127.0.0.1). Resolves once it listens.
 * @throws the listen error (a port in use) as Node reports it.
 */
export async function serveSessions(
  options: SessionOptionsFactory,
  listen: { readonly port?: number; readonly host?: string; readonly name?: string } = {},
): Promise<SessionWorker> {
  const handler = restate.createEndpointHandler({
    services: [sessionObject(options, listen.name ?? SESSION_OBJECT)],
  });
  const server = http2.createServer(handler);
  const host = listen.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    url: `http://${host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
