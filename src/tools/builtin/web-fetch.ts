import net from 'node:net';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../define-tool.js';
import { htmlToText } from './html-text.js';
import { bareHost, fetchPage, WebFetchRefusal, type FetchedPage } from './web-request.js';

/** Characters of page text one call returns; `offset` reads on. */
export const WEB_FETCH_MAX_CHARS = 100_000;

const webFetchInput = z.strictObject({
  url: z.url().describe('The URL to fetch content from'),
  prompt: z.string().describe('The prompt to run on the fetched content'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Character position in the page text to start reading from. Use it to read on through a page too long for one call, with the value the previous result gave.',
    ),
});

/** WebFetch's `tool_response` (Claude Code's fields): status, size, the text the model got, time taken (ms). */
export const webFetchOutputSchema = z.object({
  bytes: z.number(),
  code: z.number(),
  codeText: z.string(),
  result: z.string(),
  durationMs: z.number(),
  url: z.string(),
});

/** {@link webFetchOutputSchema} as a type. */
export type WebFetchOutput = z.infer<typeof webFetchOutputSchema>;

/** Claude Code's words for a host without a dot (measured). */
const DOTLESS_HOST =
  'WebFetch cannot fetch localhost or other hostnames without a dot. To reach a local server, use Bash with curl instead.';

/**
 * `WebFetch`: GETs `url` and returns its text (HTML converted to Markdown-like text) for the model to
 * answer `prompt` from.
 *
 * Contract:
 * - Permission: an ordinary tool — asks unless an allow rule (`WebFetch`, `WebFetch(domain:host)`,
 *   `WebFetch(domain:*.example.com)`) covers it; deny rules win. Not read-only (plan mode refuses it).
 * - Reach: only public addresses. A host that is, or resolves to, a loopback, private, link-local
 *   or reserved address is refused unless an allow rule names that exact host
 *   (`WebFetch(domain:127.0.0.1)`; no wildcard does). Checked on every redirect hop, on the address
 *   actually connected to. Hosts without a dot are refused like Claude Code does, unless named so.
 * - `http:` is upgraded to `https:`, except for a host an allow rule names (a local server).
 * - Redirects: followed within the same site; to another host, scheme or port the call returns the
 *   new URL instead, so that fetching it is a call of its own, under the policy.
 * - Limits: 10 MiB downloaded, 60 s per page, {@link WEB_FETCH_MAX_CHARS} characters of text per call
 *   (`offset` reads on). Binary content types are refused.
 * - `prompt`: hookloop runs no second model on the page (Claude Code summarizes with a small one);
 *   the text comes back with the prompt, for the calling model to answer itself.
 * - A status ≥ 400 is a failure (`Request failed with status code N`), PostToolUseFailure sees it.
 */
export const WebFetch = defineTool({
  name: 'WebFetch',
  description: [
    'Fetches a URL and returns the page as text (HTML converted to Markdown-like text), for you to answer `prompt` from.',
    '- Only public addresses: localhost, private and link-local addresses are refused unless a permission rule names the host.',
    '- HTTP is upgraded to HTTPS. Redirects to another host are returned to you rather than followed; call again with the redirect URL.',
    `- At most ${WEB_FETCH_MAX_CHARS} characters per call; the result says which \`offset\` reads on.`,
  ].join('\n'),
  inputSchema: webFetchInput,
  outputSchema: webFetchOutputSchema,
  handler: async (input, context): Promise<WebFetchOutput> => {
    const started = performance.now();
    const named = namedHosts(context.allowRules ?? []);
    const url = targetUrl(input.url, named);
    let fetched;
    try {
      fetched = await fetchPage(url, (host) => named.has(host), context.signal);
    } catch (error) {
      if (error instanceof WebFetchRefusal) throw new ToolFailure(error.message);
      throw new ToolFailure(
        `WebFetch failed for ${url.toString()}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const durationMs = Math.round(performance.now() - started);
    if (fetched.kind === 'redirect') {
      const result = `The page redirected (HTTP ${fetched.status}) to another host: ${fetched.location}\nIt was not followed. To read it, call WebFetch again with that URL (and the same prompt).`;
      return { bytes: 0, code: fetched.status, codeText: 'Redirect', result, durationMs, url: fetched.url };
    }
    if (fetched.status >= 400) throw new ToolFailure(`Request failed with status code ${fetched.status}`);
    const text = pageText(fetched);
    const offset = input.offset ?? 0;
    const shown = text.slice(offset, offset + WEB_FETCH_MAX_CHARS);
    const end = offset + shown.length;
    const header = `Fetched ${fetched.url} (HTTP ${fetched.status}${fetched.statusText ? ` ${fetched.statusText}` : ''}, ${fetched.contentType || 'no content type'}, ${fetched.body.length} bytes${fetched.truncated ? ', cut at 10 MiB' : ''}).`;
    const ask = `hookloop does not run a second model on web pages: the page text follows; answer this from it yourself: ${input.prompt}`;
    const more =
      end < text.length
        ? `\n\n[Characters ${offset}-${end} of ${text.length}. Call WebFetch again with offset ${end} to read on.]`
        : '';
    const result = `${header}\n${ask}\n\n${shown}${more}`;
    return {
      bytes: fetched.body.length,
      code: fetched.status,
      codeText: fetched.statusText,
      result,
      durationMs,
      url: fetched.url,
    };
  },
  render: (output) => output.result,
});

/**
 * The hosts allow rules name exactly (`WebFetch(domain:host)`, no wildcard): the only ones that may
 * be private. Read from the rule text (the policy has already parsed and checked every rule).
 */
function namedHosts(rules: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const text of rules) {
    const domain = /^\s*WebFetch\(\s*domain:([^()*\s]+)\s*\)\s*$/.exec(text)?.[1];
    if (domain !== undefined) hosts.add(bareHost(domain));
  }
  return hosts;
}

/** The URL to fetch: http(s) only, no credentials, dotted hosts unless named, http upgraded unless named. */
function targetUrl(text: string, named: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolFailure('Invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolFailure(`WebFetch fetches http and https URLs only, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new ToolFailure('WebFetch does not send credentials written in a URL');
  const host = bareHost(url.hostname);
  if (named.has(host)) return url;
  if (!host.includes('.') && net.isIP(host) === 0) throw new ToolFailure(DOTLESS_HOST);
  if (url.protocol === 'http:') url.protocol = 'https:';
  return url;
}

/** The page as text: HTML converted, other text types as they are; binary types refused. */
function pageText(page: FetchedPage): string {
  const type = page.contentType.split(';', 1)[0]!.trim().toLowerCase();
  const body = page.body.toString('utf8');
  if (type === 'text/html' || type === 'application/xhtml+xml') return htmlToText(body);
  if (type === '' || type.startsWith('text/') || /[/+](json|xml|javascript|yaml)$/.test(type)) return body;
  throw new ToolFailure(`WebFetch reads text pages only; ${page.url} is ${type}`);
}
