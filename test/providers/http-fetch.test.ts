import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch } from '../../src/model/http-fetch.js';

// The providers' fetch on node:http: what the SDKs read from a fetch Response must hold.
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
  });
}

describe('httpFetch', () => {
  it('sends method, headers and body, and answers with status, headers and a body readable twice through clone()', async () => {
    const url = await serve(async (request, response) => {
      const body = await readBody(request);
      response.writeHead(201, 'Made', {
        'content-type': 'application/json',
        'x-seen': `${request.method} ${request.headers['x-api-key']} ${request.headers['content-length']}`,
      });
      response.end(JSON.stringify({ echoed: body }));
    });
    const response = await httpFetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: new Headers({ 'X-Api-Key': 'k1' }),
      body: '{"a":1}',
    });
    expect([response.ok, response.status, response.statusText, response.url]).toEqual([
      true,
      201,
      'Made',
      `${url}/v1/messages`,
    ]);
    expect(response.headers.get('x-seen')).toBe('POST k1 7');
    const copy = response.clone();
    expect(await response.json()).toEqual({ echoed: '{"a":1}' });
    expect(await copy.text()).toBe('{"echoed":"{\\"a\\":1}"}');
  });

  it('streams: the first event is readable while the server still holds the rest', async () => {
    let finish: () => void = () => undefined;
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: one\n\n');
      finish = () => response.end('event: two\n\n');
    });
    const response = await httpFetch(url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('event: one\n\n');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('event: two\n\n');
  });

  it('decodes a gzip body', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(zlib.gzipSync(`accepts ${request.headers['accept-encoding']}`));
    });
    expect(await (await httpFetch(url)).text()).toBe('accepts gzip, deflate, br');
  });

  it('an abort while the body streams ends the read with the signal reason, an AbortError', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: one\n\n');
    });
    const controller = new AbortController();
    const response = await httpFetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('an aborted signal rejects before anything is sent', async () => {
    let requests = 0;
    const url = await serve((_request, response) => {
      requests++;
      response.end();
    });
    await expect(httpFetch(url, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toBe(0);
  });

  it('a refused connection rejects as fetch does: TypeError "fetch failed" with the socket error as cause', async () => {
    const url = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const failure = await httpFetch(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it('follows a 307 with the same method and body, and a 303 as a GET', async () => {
    const url = await serve(async (request, response) => {
      const body = await readBody(request);
      if (request.url === '/old') response.writeHead(307, { location: '/new' }).end();
      else if (request.url === '/other') response.writeHead(303, { location: '/new' }).end();
      else response.end(`${request.method} ${body}`);
    });
    const moved = await httpFetch(`${url}/old`, { method: 'POST', body: 'payload' });
    expect([await moved.text(), moved.redirected]).toEqual(['POST payload', true]);
    expect(await (await httpFetch(`${url}/other`, { method: 'POST', body: 'payload' })).text()).toBe('GET ');
  });
});
