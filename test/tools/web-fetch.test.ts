import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools, HookEngine, type ToolResultMessage } from '../../src/index.js';
import { guardedLookup, isPublicAddress } from '../../src/tools/builtin/web-address.js';
import { scriptedRun, text, toolResults, toolUse } from '../support/scripted-run.js';

// WebFetch against a server this test starts on 127.0.0.1. Reaching it takes an allow rule that
// names the host; every other way of pointing at a loopback or private address is refused, and the
// server proves it by never seeing the request.

const PAGE = `<!doctype html><html><head><title>t</title><style>body{}</style><script>steal()</script></head>
<body><h1>Release &amp; notes</h1><p>Version <b>2.0</b> is out. <a href="/changes">See the changes</a>.</p><ul><li>faster</li><li>smaller</li></ul></body></html>`;

let server: http.Server;
let port = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(request.url ?? '');
    if (request.url === '/page')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (request.url === '/hop') response.writeHead(302, { location: '/page' }).end();
    else if (request.url === '/away')
      response.writeHead(302, { location: `http://localhost.:${port}/secret` }).end();
    else if (request.url === '/long')
      response.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(100_000) + 'TAIL');
    else if (request.url === '/binary')
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('nothing here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function fetchWith(
  urls: readonly string[],
  rules: { allow?: string[]; deny?: string[] },
  hooks?: HookEngine,
): Promise<ToolResultMessage[]> {
  const turns = [
    urls.map((url, index) => toolUse(`w${index}`, 'WebFetch', { url, prompt: 'What is new?' })),
    [text('done')],
  ];
  const { result } = await scriptedRun(turns, {
    tools: builtinTools(),
    permissions: { rules: { allow: rules.allow ?? [], ask: [], deny: rules.deny ?? [] } },
    ...(hooks ? { hooks } : {}),
  });
  return toolResults(result.messages);
}

describe('WebFetch', () => {
  it('fetches a page an allow rule names, as text with the prompt, and hooks see the status', async () => {
    const responses: unknown[] = [];
    const hooks = new HookEngine();
    hooks.on('PostToolUse', (input) => void responses.push(input.tool_response));
    const [result] = await fetchWith(
      [`http://127.0.0.1:${port}/page`],
      { allow: ['WebFetch(domain:127.0.0.1)'] },
      hooks,
    );
    expect(result!.isError).toBe(false);
    expect(result!.content).toContain('answer this from it yourself: What is new?');
    expect(result!.content).toContain(
      '# Release & notes\n\nVersion 2.0 is out. [See the changes](/changes).\n\n- faster\n- smaller',
    );
    expect(result!.content).not.toContain('steal()');
    expect(responses[0]).toMatchObject({
      code: 200,
      codeText: 'OK',
      url: `http://127.0.0.1:${port}/page`,
      bytes: Buffer.byteLength(PAGE),
    });
  });

  it('follows a redirect on the same host, and returns one to another host without following it', async () => {
    seen.length = 0;
    const [hop, away] = await fetchWith([`http://127.0.0.1:${port}/hop`, `http://127.0.0.1:${port}/away`], {
      allow: ['WebFetch(domain:127.0.0.1)'],
    });
    expect(hop!.content).toContain('# Release & notes');
    expect(away!.isError).toBe(false);
    expect(away!.content).toContain(
      `redirected (HTTP 302) to another host: http://localhost.:${port}/secret`,
    );
    expect(seen).not.toContain('/secret');
  });

  it('refuses loopback, private and link-local addresses that no rule names, however they are spelled (attack)', async () => {
    seen.length = 0;
    const attempts = [
      `http://127.0.0.1:${port}/page`,
      `http://[::1]:${port}/page`,
      `http://[::ffff:127.0.0.1]:${port}/page`,
      `http://0x7f000001:${port}/page`,
      `http://2130706433:${port}/page`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
    ];
    // `WebFetch` and `domain:*` allow every public host; neither names a private one.
    const results = await fetchWith(attempts, { allow: ['WebFetch', 'WebFetch(domain:*)'] });
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/not a public address/);
    }
    expect(seen).toEqual([]);
  });

  it('checks the address a name resolves to inside the connection, so a name for loopback is refused too (attack)', async () => {
    // No dotted name resolves to loopback on a test machine without network DNS; the guard itself
    // is the connection's lookup, so it is asked directly with a name that does.
    const lookup = (allowPrivate: boolean) =>
      new Promise<string>((resolve) =>
        guardedLookup(allowPrivate)('localhost', {}, (error, address) =>
          resolve(error ? error.message : String(address)),
        ),
      );
    expect(await lookup(false)).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
    );
    expect(await lookup(true)).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fd00::1',
      '100.64.0.1',
      '0.0.0.0',
      'not-an-ip',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("refuses a dotless host with Claude Code's words, and a deny rule still wins over a naming allow rule", async () => {
    seen.length = 0;
    const [dotless] = await fetchWith([`http://localhost:${port}/page`], { allow: ['WebFetch'] });
    expect(dotless!.content).toContain(
      'WebFetch cannot fetch localhost or other hostnames without a dot. To reach a local server, use Bash with curl instead.',
    );
    const [denied] = await fetchWith([`http://127.0.0.1:${port}/page`], {
      allow: ['WebFetch(domain:127.0.0.1)'],
      deny: ['WebFetch(domain:127.0.0.1)'],
    });
    expect(denied!.isError).toBe(true);
    const [unruled] = await fetchWith([`http://127.0.0.1:${port}/page`], {});
    expect(unruled!.isError).toBe(true); // headless: the ask is a denial
    expect(seen).toEqual([]);
  });

  it('pages a long text with offset, and refuses binary content and error statuses', async () => {
    const allow = { allow: ['WebFetch(domain:127.0.0.1)'] };
    const [first, binary, missing] = await fetchWith(
      [`http://127.0.0.1:${port}/long`, `http://127.0.0.1:${port}/binary`, `http://127.0.0.1:${port}/nope`],
      allow,
    );
    expect(first!.content).toContain('Call WebFetch again with offset 100000 to read on.');
    expect(first!.content).not.toContain('TAIL');
    expect(binary!.content).toContain('WebFetch reads text pages only');
    expect(missing).toMatchObject({ isError: true, content: 'Request failed with status code 404' });
    const turns = [
      [toolUse('w', 'WebFetch', { url: `http://127.0.0.1:${port}/long`, prompt: 'rest', offset: 100_000 })],
      [text('done')],
    ];
    const { result } = await scriptedRun(turns, {
      tools: builtinTools(),
      permissions: { rules: { allow: allow.allow, ask: [], deny: [] } },
    });
    expect(toolResults(result.messages)[0]!.content).toMatch(/\n\nTAIL$/);
  });
});
