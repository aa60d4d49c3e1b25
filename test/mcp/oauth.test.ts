import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/oauth-server.mjs', import.meta.url));
const BROWSER = fileURLToPath(new URL('./fixtures/conformance/oauth-browser.mjs', import.meta.url));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** Starts the OAuth-protected test server on 127.0.0.1; resolves with its MCP URL. */
function oauthServer(authLog: string): Promise<string> {
  const child = spawn(process.execPath, [SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, AUTH_LOG: authLog },
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}/mcp`);
    });
    child.on('exit', () => reject(new Error('the OAuth test server exited')));
  });
}

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('OAuth for remote MCP servers (the SDK server side on 127.0.0.1)', () => {
  it(
    'headless without a login: one warning naming `hookloop mcp login`; after the login the tool runs, the tokens are owner-only and reach neither the model nor the transcript',
    { timeout: 180_000 },
    async () => {
      const dir = tempProject();
      const authLog = path.join(dir, 'auth.log');
      const url = await oauthServer(authLog);
      const home = path.join(dir, 'hookloop-home');
      const env = { HOOKLOOP_HOME: home, BROWSER: `"${process.execPath}" "${BROWSER}"` };
      writeJson(dir, 'mcp.json', { mcpServers: { sec: { type: 'http', url } } });
      const turns = writeJson(dir, 'turns.json', [
        [{ type: 'tool_use', id: 'toolu_01', name: 'mcp__sec__whoami', input: {} }],
        [{ type: 'text', text: 'done' }],
      ]);
      const run = () =>
        runCli(
          [
            '-p',
            'go',
            '--strict-mcp-config',
            '--mcp-config',
            'mcp.json',
            '--model-script',
            turns,
            '--allowedTools',
            'mcp__sec',
            '--output-format',
            'stream-json',
          ],
          dir,
          env,
        );

      const before = run();
      expect(before.status).toBe(0);
      expect(before.stderr).toContain('MCP server "sec" (mcp.json) failed to start: needs authentication');
      expect(before.stderr).toContain('run `hookloop mcp login sec`');
      expect(before.stdout).toContain('No such tool available: mcp__sec__whoami');

      const login = runCli(
        ['mcp', 'login', 'sec', '--strict-mcp-config', '--mcp-config', 'mcp.json'],
        dir,
        env,
      );
      expect(login.stderr).toContain('Open this URL to authorize hookloop:');
      expect(login.stdout).toBe('Authenticated with "sec" (1 tool).\n');
      expect(login.status).toBe(0);
      const store = path.join(home, 'mcp-oauth');
      expect(fs.statSync(store).mode & 0o777).toBe(0o700);
      for (const file of fs.readdirSync(store))
        expect(fs.statSync(path.join(store, file)).mode & 0o777).toBe(0o600);

      const after = run();
      expect(after.status).toBe(0);
      expect(after.stdout).toContain('CLIENT:known');
      // The token the server saw is nowhere the model, hooks or the transcript could read it.
      const token = fs
        .readFileSync(authLog, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('Bearer '))
        .at(-1)!
        .slice('Bearer '.length);
      expect(token.length).toBeGreaterThan(10);
      expect(after.stdout).not.toContain(token);
      expect(after.stderr).not.toContain(token);
      expect(allText(path.join(home, 'projects'))).not.toContain(token);

      const logout = runCli(
        ['mcp', 'logout', 'sec', '--strict-mcp-config', '--mcp-config', 'mcp.json'],
        dir,
        env,
      );
      expect(logout.status).toBe(0);
      expect(run().stderr).toContain('needs authentication');
    },
  );

  it(
    'mcp login names the configured servers for an unknown name and refuses a stdio server',
    { timeout: 60_000 },
    () => {
      const dir = tempProject();
      writeJson(dir, 'mcp.json', { mcpServers: { local: { command: 'true' } } });
      const unknown = runCli(
        ['mcp', 'login', 'nope', '--strict-mcp-config', '--mcp-config', 'mcp.json'],
        dir,
      );
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toBe('hookloop: mcp login: no MCP server named "nope"; configured: local\n');
      const stdio = runCli(['mcp', 'login', 'local', '--strict-mcp-config', '--mcp-config', 'mcp.json'], dir);
      expect(stdio.stderr).toBe(
        'hookloop: mcp login: "local" is a stdio server; only http and sse servers use OAuth\n',
      );
    },
  );
});
