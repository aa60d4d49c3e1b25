// Cross-app access (SEP-990) through the CLI, against an identity provider, an authorization server
// and an MCP server the tests start on 127.0.0.1 (fixtures/cross-app-server.mjs). The suite's own
// scenario (auth/cross-app-access-complete-flow) is in conformance-suite.test.ts; these are the
// failures a user meets. Needs `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/cross-app-server.mjs', import.meta.url));
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
const ID_TOKEN = 'id-token-of-alice';
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** Starts the fixture in `mode`; resolves with its base URL. */
function crossAppServer(mode: string, tokenLog: string): Promise<string> {
  const child = spawn(process.execPath, [SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CROSS_APP_MODE: mode, TOKEN_LOG: tokenLog },
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.on('exit', () => reject(new Error('the cross-app test server exited')));
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

/** A `-p` run that calls the cross-app server's tool and the stdio server's, every hook's stdin logged. */
async function runWith(mode: string) {
  const dir = tempProject();
  const tokenLog = path.join(dir, 'tokens.log');
  fs.writeFileSync(tokenLog, '');
  const base = await crossAppServer(mode, tokenLog);
  const home = path.join(dir, 'hookloop-home');
  writeJson(dir, 'mcp.json', {
    mcpServers: {
      corp: {
        type: 'http',
        url: `${base}/mcp`,
        oauth: {
          clientId: 'mcp-client',
          clientSecret: 'mcp-secret',
          crossAppAccess: {
            idpTokenEndpoint: `${base}/idp/token`,
            idpClientId: 'hookloop-at-idp',
            idToken: '${CORP_ID_TOKEN}',
          },
        },
      },
      local: { command: process.execPath, args: [STDIO_SERVER] },
    },
  });
  const hookLog = path.join(dir, 'hooks.log');
  const logHook = { type: 'command', command: `cat >> "${hookLog}"` };
  writeJson(dir, 'settings.json', {
    hooks: {
      PreToolUse: [{ matcher: '.*', hooks: [logHook] }],
      PostToolUse: [{ matcher: '.*', hooks: [logHook] }],
      PostToolUseFailure: [{ matcher: '.*', hooks: [logHook] }],
      SessionStart: [{ hooks: [logHook] }],
    },
  });
  const turns = writeJson(dir, 'turns.json', [
    [
      { type: 'tool_use', id: 'toolu_01', name: 'mcp__corp__whoami', input: {} },
      { type: 'tool_use', id: 'toolu_02', name: 'mcp__local__echo', input: { text: 'hi' } },
    ],
    [{ type: 'text', text: 'done' }],
  ]);
  const run = runCli(
    [
      '-p',
      'go',
      '--strict-mcp-config',
      '--mcp-config',
      'mcp.json',
      '--settings',
      'settings.json',
      '--model-script',
      turns,
      '--allowedTools',
      'mcp__corp',
      'mcp__local',
      '--output-format',
      'stream-json',
      '--verbose',
    ],
    dir,
    { HOOKLOOP_HOME: home, CORP_ID_TOKEN: ID_TOKEN },
  );
  const hooks = fs.existsSync(hookLog) ? fs.readFileSync(hookLog, 'utf8') : '';
  const tokens = [ID_TOKEN, ...fs.readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean)];
  const seen = [run.stdout, run.stderr, allText(home), allText(path.join(dir, '.test-home')), hooks].join(
    '\n',
  );
  return { run, hooks, tokens, leaked: tokens.filter((token) => seen.includes(token)) };
}

describe('cross-app access (SEP-990) for a remote MCP server', () => {
  it(
    'exchanges the ID token for an ID-JAG and the ID-JAG for an access token; the tool runs and no token is in the output, the transcript or a hook stdin',
    { timeout: 120_000 },
    async () => {
      const { run, hooks, tokens, leaked } = await runWith('ok');
      expect(run.status).toBe(0);
      expect(run.stderr).not.toContain('failed to start');
      expect(run.stdout).toContain('USER:alice');
      expect(run.stdout).toContain('ECHO:hi');
      // The ID token, the ID-JAG and the access token were all issued and used.
      expect(tokens.length).toBe(3);
      expect(hooks).toContain('"tool_name":"mcp__corp__whoami"');
      expect(leaked).toEqual([]);
    },
  );

  it.each([
    [
      'idp-refuses',
      'cross-app access: the identity provider refused the token exchange (HTTP 400 invalid_grant: user not entitled)',
    ],
    [
      'wrong-audience',
      'cross-app access: the identity provider issued an ID-JAG for "https://other-as.example", not for this server\'s authorization server',
    ],
    [
      'as-refuses',
      'cross-app access: the authorization server refused the ID-JAG grant (grant not accepted)',
    ],
  ])(
    "when %s: one warning saying so, the server's tools absent, the other server working, no token anywhere",
    { timeout: 120_000 },
    async (mode, warning) => {
      const { run, leaked } = await runWith(mode);
      expect(run.status).toBe(0);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('MCP server "corp"'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('MCP server "corp" (mcp.json) failed to start: ');
      expect(warnings[0]).toContain(warning);
      expect(run.stdout).toContain('No such tool available: mcp__corp__whoami');
      expect(run.stdout).toContain('ECHO:hi');
      expect(leaked).toEqual([]);
    },
  );

  it('a crossAppAccess without the server-side client stops the run with one line naming oauth.clientId', () => {
    const dir = tempProject();
    writeJson(dir, 'mcp.json', {
      mcpServers: {
        corp: {
          type: 'http',
          url: 'http://127.0.0.1:9/mcp',
          oauth: {
            crossAppAccess: { idpTokenEndpoint: 'http://127.0.0.1:9/t', idpClientId: 'x', idToken: 't' },
          },
        },
      },
    });
    const run = runCli(['-p', 'go', '--strict-mcp-config', '--mcp-config', 'mcp.json'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^hookloop: .*mcp\.json: mcpServers\.corp\.oauth\.clientId: expected a string \(cross-app access needs the client registered at the server's authorization server\), got nothing\n$/,
    );
  });

  it('a crossAppAccess without an identity provider to ask stops the run with one line naming the field', () => {
    const dir = tempProject();
    writeJson(dir, 'mcp.json', {
      mcpServers: {
        corp: {
          type: 'http',
          url: 'http://127.0.0.1:9/mcp',
          oauth: { clientId: 'c', crossAppAccess: { idpClientId: 'x', idToken: 't' } },
        },
      },
    });
    const run = runCli(['-p', 'go', '--strict-mcp-config', '--mcp-config', 'mcp.json'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^hookloop: .*mcp\.json: mcpServers\.corp\.oauth\.crossAppAccess: expected "idpTokenEndpoint" or "idpIssuer", got neither\n$/,
    );
  });
});
