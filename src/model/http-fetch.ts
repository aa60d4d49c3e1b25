import http from 'node:http';
import type https from 'node:https';
import { pipeline, Readable, type Transform } from 'node:stream';

/**
 * A `fetch` for the provider SDKs built on `node:http`/`node:https`. Node 20's own `fetch` (undici)
 * compiles its HTTP parser, a WebAssembly module, on the first request: on this class of machine
 * that was about a third of a whole `hookloop -p` run and ~30 MB of memory, for one local request.
 * Node's http client parses in C++ and is already part of the process.
 *
 * What the SDKs rely on is kept: the response is a real `Response` (status, headers, a streaming
 * `body`, `clone`, `text`, `json`) that streams as the bytes arrive; `init.signal` aborts the
 * request or the body being read, rejecting with the signal's reason (an `AbortError`, which is how
 * the SDKs tell their timeouts); connection failures reject with `TypeError('fetch failed')` and the
 * socket error as `cause`, as undici does; gzip, deflate and br bodies are decoded; redirects are
 * followed (at most 20). Like Node 20's `fetch`, it does not read `HTTPS_PROXY`/`HTTP_PROXY`.
 * Anything it does not handle itself (a `Request` object, a streaming or form request body, a
 * scheme other than http/https) goes to `globalThis.fetch`, unchanged.
 */
export function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = requestBody(init.body);
  const url = href === undefined ? undefined : parseUrl(href);
  if (url === undefined || body === UNSUPPORTED || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return globalThis.fetch(input, init);
  return send(
    url,
    (init.method ?? 'GET').toUpperCase(),
    requestHeaders(init.headers, body),
    body,
    init.signal ?? undefined,
    0,
  );
}

function parseUrl(href: string): URL | undefined {
  try {
    return new URL(href);
  } catch {
    return undefined; // fetch itself rejects it, with its own message
  }
}

const UNSUPPORTED = Symbol('unsupported body');
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function requestBody(body: RequestInit['body']): Buffer | undefined | typeof UNSUPPORTED {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return UNSUPPORTED;
}

/** The request's headers as Node's client takes them, with the defaults `fetch` adds itself. */
function requestHeaders(headers: RequestInit['headers'], body: Buffer | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  const add = (value: string, name: string): void => {
    const key = name.toLowerCase();
    record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
  };
  if (
    headers instanceof Object &&
    typeof (headers as Headers).forEach === 'function' &&
    !Array.isArray(headers)
  )
    (headers as Headers).forEach(add);
  else if (Array.isArray(headers)) for (const [name, value] of headers) add(String(value), String(name));
  else if (headers) for (const [name, value] of Object.entries(headers)) add(String(value), name);
  record['accept'] ??= '*/*';
  record['accept-encoding'] ??= 'gzip, deflate, br';
  if (body !== undefined) record['content-length'] = String(body.length);
  return record;
}

async function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  redirects: number,
): Promise<Response> {
  if (signal?.aborted) throw signal.reason;
  // TLS is loaded only for an https URL: a local server (a mock, Ollama) needs none of it.
  const transport: typeof http | typeof https =
    url.protocol === 'https:' ? process.getBuiltinModule('node:https') : http;
  const incoming = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = transport.request(url, { method, headers });
    const onAbort = (): void => {
      request.destroy(signal?.reason as Error);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    request.once('response', (response) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(response);
    });
    request.end(body);
  });
  const status = incoming.statusCode ?? 0;
  const location = incoming.headers.location;
  if (REDIRECTS.has(status) && location !== undefined && redirects < MAX_REDIRECTS) {
    incoming.resume();
    // As fetch: 303, and 301/302 after a POST, become a GET without a body; 307/308 repeat the request.
    const toGet =
      status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
    const next = new URL(location, url);
    const nextHeaders = { ...headers };
    if (toGet)
      for (const name of [
        'content-length',
        'content-type',
        'content-encoding',
        'content-language',
        'content-location',
      ])
        delete nextHeaders[name];
    if (next.origin !== url.origin)
      for (const name of ['authorization', 'x-api-key', 'cookie']) delete nextHeaders[name];
    return send(next, toGet ? 'GET' : method, nextHeaders, toGet ? undefined : body, signal, redirects + 1);
  }
  const response = new Response(
    NULL_BODY.has(status) || method === 'HEAD' ? null : responseBody(incoming, signal),
    {
      status,
      statusText: incoming.statusMessage ?? '',
      headers: responseHeaders(incoming.rawHeaders),
    },
  );
  Object.defineProperty(response, 'url', { value: url.href });
  if (redirects > 0) Object.defineProperty(response, 'redirected', { value: true });
  return response;
}

function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

/** The decoded body as a web stream; an abort (or a cancel by the reader) ends the socket. */
function responseBody(
  incoming: http.IncomingMessage,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const decoder = contentDecoder(incoming.headers['content-encoding']);
  const source: Readable = decoder ? pipeline(incoming, decoder, () => undefined) : incoming;
  if (signal) {
    const onAbort = (): void => {
      incoming.destroy(signal.reason as Error);
      source.destroy(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    source.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  return Readable.toWeb(source) as ReadableStream<Uint8Array>;
}

function contentDecoder(encoding: string | undefined): Transform | undefined {
  const coding = encoding?.trim().toLowerCase();
  if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate' && coding !== 'br') return undefined;
  const zlib = process.getBuiltinModule('node:zlib');
  // Lenient like fetch: a body cut short at the end still yields what was decoded.
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'br')
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  return coding === 'deflate' ? zlib.createInflate(lenient) : zlib.createGunzip(lenient);
}
