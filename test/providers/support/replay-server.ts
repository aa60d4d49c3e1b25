/**
 * A local HTTP server on 127.0.0.1 that answers each request with the next scripted reply,
 * replaying recorded wire fixtures (test/fixtures/providers/<provider>/): an SSE stream (optionally
 * cut into small byte chunks, so events and JSON split across TCP reads), a JSON error body with
 * its status and headers, a dropped connection, or no answer at all. Every request is recorded.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the provider wire fixtures. */
export const PROVIDER_FIXTURES = fileURLToPath(new URL('../../fixtures/providers/', import.meta.url));

/** One scripted reply. */
export type Reply =
  /** An SSE body (a fixture file's text); `chunkBytes` splits it into writes of that size; `dropAfterEvents` destroys the socket after that many events. */
  | {
      readonly kind: 'sse';
      readonly text: string;
      readonly chunkBytes?: number;
      readonly dropAfterEvents?: number;
    }
  /** A JSON answer: status, headers and body (an error fixture is `{status, headers, body}`). */
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body: unknown;
    }
  /** Destroy the socket before any response. */
  | { readonly kind: 'drop' }
  /** Never answer (for timeouts and aborts). */
  | { readonly kind: 'hang' };

/** A request the server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** Reads a fixture file of `provider` as text. */
export function fixtureText(provider: string, name: string): string {
  return fs.readFileSync(path.join(PROVIDER_FIXTURES, provider, name), 'utf8');
}

/** A reply from a fixture file: `.sse` files stream, `.json` files are `{status, headers, body}` answers. */
export function fixtureReply(
  provider: string,
  name: string,
  options: { chunkBytes?: number; dropAfterEvents?: number } = {},
): Reply {
  const text = fixtureText(provider, name);
  if (name.endsWith('.sse')) return { kind: 'sse', text, ...options };
  const parsed = JSON.parse(text) as { status: number; headers?: Record<string, string>; body: unknown };
  return {
    kind: 'json',
    status: parsed.status,
    ...(parsed.headers ? { headers: parsed.headers } : {}),
    body: parsed.body,
  };
}

/** A running replay server. */
export interface ReplayServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Replies not yet used. */
  readonly pending: Reply[];
  close(): Promise<void>;
}

/** Starts a replay server answering requests with `replies` in order; a request beyond them gets a 500. */
export async function startReplayServer(replies: readonly Reply[]): Promise<ReplayServer> {
  const pending = [...replies];
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      });
      const reply = pending.shift() ?? {
        kind: 'json',
        status: 500,
        body: { error: { type: 'api_error', message: 'replay server: no reply left' } },
      };
      void answer(reply, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pending,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(reply: Reply, response: http.ServerResponse): Promise<void> {
  switch (reply.kind) {
    case 'hang':
      return;
    case 'drop':
      response.socket?.destroy();
      return;
    case 'json':
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(reply.body));
      return;
    case 'sse': {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = reply.text.split(/(?<=\n\n)/);
      const kept = reply.dropAfterEvents === undefined ? events : events.slice(0, reply.dropAfterEvents);
      // Bytes, not characters: a small chunk size also splits multi-byte UTF-8 characters.
      const body = Buffer.from(kept.join(''), 'utf8');
      const size = reply.chunkBytes ?? body.length;
      for (let offset = 0; offset < body.length; offset += size) {
        response.write(body.subarray(offset, offset + size));
        // Let each piece leave as its own TCP write.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (reply.dropAfterEvents !== undefined) response.socket?.destroy();
      else response.end();
      return;
    }
  }
}
