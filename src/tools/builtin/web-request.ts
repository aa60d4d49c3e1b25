import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, isPublicAddress, PrivateAddressError } from './web-address.js';

/** Largest body read (bytes); the rest of a bigger page is not downloaded. */
export const WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024;
/** How long one page may take, redirects included (ms). */
export const WEB_FETCH_TIMEOUT_MS = 60_000;
/** Same-host redirects followed before giving up. */
const MAX_REDIRECTS = 10;

/** A page as fetched: the final URL, status, content type and the body (at most {@link WEB_FETCH_MAX_BYTES}). */
export interface FetchedPage {
  readonly kind: 'page';
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** True when the body was cut at the byte cap. */
  readonly truncated: boolean;
}

/** A redirect to another host (or scheme, port): not followed, so that the next URL goes through the policy itself. */
export interface CrossHostRedirect {
  readonly kind: 'redirect';
  readonly url: string;
  readonly location: string;
  readonly status: number;
}

/** Why a fetch was refused before or while connecting; the message is the model-visible text. */
export class WebFetchRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebFetchRefusal';
  }
}

/**
 * GETs `url`, following redirects only within the same site, as Claude Code does: same scheme,
 * port and host (a leading `www.` aside), no credentials. Every hop is checked the same way: a host
 * that is an IP literal, or a name any of whose addresses is, must be public unless
 * `allowPrivate(host)` (an allow rule names it); the check happens inside the connection's own DNS
 * lookup, so the address checked is the address used.
 *
 * @throws WebFetchRefusal for a refused address; other errors (DNS, TLS, timeout, abort) as Node raises them.
 */
export async function fetchPage(
  start: URL,
  allowPrivate: (host: string) => boolean,
  signal: AbortSignal,
): Promise<FetchedPage | CrossHostRedirect> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)]);
  let url = start;
  for (let hop = 0; ; hop++) {
    const host = bareHost(url.hostname);
    const privateOk = allowPrivate(host);
    if (net.isIP(host) !== 0 && !isPublicAddress(host) && !privateOk)
      throw new WebFetchRefusal(privateRefusal(host, host));
    const response = await get(url, privateOk, deadline);
    const location = response.headers.location;
    if (
      response.statusCode !== undefined &&
      [301, 302, 303, 307, 308].includes(response.statusCode) &&
      location !== undefined
    ) {
      response.resume();
      const next = new URL(location, url);
      if (!sameSite(url, next))
        return {
          kind: 'redirect',
          url: url.toString(),
          location: next.toString(),
          status: response.statusCode,
        };
      if (hop >= MAX_REDIRECTS)
        throw new WebFetchRefusal(`Too many redirects (more than ${MAX_REDIRECTS}) from ${start.toString()}`);
      url = next;
      continue;
    }
    const { body, truncated } = await readBody(response);
    return {
      kind: 'page',
      url: url.toString(),
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      truncated,
    };
  }
}

/** The text for a host that is not public: what was refused and the rule that would allow it. */
export function privateRefusal(host: string, address: string): string {
  const where = host === address ? host : `${host} (${address})`;
  return `WebFetch refused ${where}: it is not a public address (loopback, private, link-local or reserved). An allow rule WebFetch(domain:${host}) lets WebFetch reach it.`;
}

/** A URL's hostname without IPv6 brackets and without a trailing dot, lower-cased. */
export function bareHost(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.replace(/\.+$/, '').toLowerCase();
}

function sameSite(from: URL, to: URL): boolean {
  const site = (host: string) => bareHost(host).replace(/^www\./, '');
  return (
    from.protocol === to.protocol &&
    from.port === to.port &&
    to.username === '' &&
    to.password === '' &&
    site(from.hostname) === site(to.hostname)
  );
}

function get(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        // A fresh socket per request: a pooled one may have been opened for a check that no longer holds.
        agent: false,
        lookup: guardedLookup(allowPrivate),
        signal,
        headers: {
          'user-agent': 'hookloop-WebFetch/1',
          accept: 'text/html, text/markdown, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1',
          'accept-encoding': 'identity',
        },
      },
      resolve,
    );
    request.on('error', (error) => {
      if (error instanceof PrivateAddressError)
        reject(new WebFetchRefusal(privateRefusal(error.host, error.address)));
      else reject(error);
    });
    request.end();
  });
}

function readBody(response: http.IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks), truncated });
    };
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = WEB_FETCH_MAX_BYTES - size;
      if (chunk.length <= room) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      // Over the cap: keep what fits and stop downloading.
      chunks.push(chunk.subarray(0, room));
      response.destroy();
      finish(true);
    });
    response.on('end', () => finish(false));
    response.on('error', (error) => {
      if (!done) reject(error);
    });
  });
}
