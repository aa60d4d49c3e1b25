import { spawn } from 'node:child_process';
import http from 'node:http';

/** A loopback server waiting for one OAuth redirect, and how to send a person to the authorization page. */
export interface OAuthCallback {
  /** The redirect URI it serves: `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /**
   * The `code` of the first redirect to `/callback` whose `state` is `state`.
   * @throws Error when the redirect carries `error`, or after `timeoutMs` without one.
   */
  waitForCode(state: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (`port`, or a free one when 0) for the authorization server's redirect back
 * to hookloop. A loopback IP literal rather than `localhost`, so it never depends on how the name resolves.
 * @throws Error when the port cannot be bound (in use).
 */
export async function startOAuthCallback(port: number): Promise<OAuthCallback> {
  let waiting: { state: string; resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void response.writeHead(404).end();
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    // A redirect for another login (or a page guessing the port) is refused and changes nothing.
    if (!waiting || url.searchParams.get('state') !== waiting.state)
      return void response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Unexpected authorization response.\n');
    const current = waiting;
    waiting = undefined;
    if (error !== null || code === null) {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Authorization failed. You can close this window.\n');
      current.reject(
        new Error(
          `the authorization server answered ${error ?? 'without a code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`,
        ),
      );
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/plain' })
      .end('Authorized. You can close this window and return to hookloop.\n');
    current.resolve(code);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    redirectUrl: `http://127.0.0.1:${bound}/callback`,
    waitForCode: (state, timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`no authorization arrived within ${Math.round(timeoutMs / 1000)}s`));
        }, timeoutMs);
        waiting = {
          state,
          resolve: (code) => (clearTimeout(timer), resolve(code)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        };
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends a person to `url`: always prints it (`write`), for a machine without a browser, and starts
 * `$BROWSER <url>` when BROWSER is set, else the system's opener (`open` on macOS, `xdg-open`
 * elsewhere). A browser that cannot start is no error: the printed URL is still there.
 */
export function openInBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  write: (line: string) => void,
): void {
  write(`Open this URL to authorize hookloop:\n${url}\n`);
  const browser = env['BROWSER'];
  // The URL goes as an argument of its own, never through the shell's parser.
  const [command, args] = browser
    ? ['/bin/sh', ['-c', `${browser} "$1"`, 'browser', url]]
    : [process.platform === 'darwin' ? 'open' : 'xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], {
      stdio: 'ignore',
      detached: true,
      env: { ...env } as NodeJS.ProcessEnv,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The printed URL is the fallback.
  }
}
