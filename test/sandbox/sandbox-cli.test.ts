import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { bashTurn, canSandbox, runScripted, sandboxProject } from './support.js';

// The OS sandbox (sandbox.enabled) through the built CLI, with a scripted model and real dirs.
describe.skipIf(!canSandbox)('Bash in the OS sandbox (CLI)', () => {
  it('writes inside the workspace and refuses a write outside it; the canary never appears', async () => {
    const where = sandboxProject({ sandbox: { enabled: true } });
    const canary = path.join(where.outside, 'canary');
    const run = await runScripted(
      where,
      [
        bashTurn('in', { command: 'touch inside && echo made' }),
        bashTurn('out', { command: `touch ${canary}` }),
        bashTurn('key', { command: 'echo "key=$ANTHROPIC_API_KEY"' }),
      ],
      { env: { ANTHROPIC_API_KEY: 'sk-ant-secret' } },
    );
    expect(run.status).toBe(0);
    expect(run.results['key']).toBe('key=');
    expect(run.results['in']).toBe('made');
    expect(fs.existsSync(path.join(where.project, 'inside'))).toBe(true);
    expect(run.results['out']).toMatch(/Read-only file system|Permission denied|Operation not permitted/);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('keeps hookloop configuration read-only inside the workspace, even in bypassPermissions and behind a computed path or a symlink', async () => {
    const where = sandboxProject({ sandbox: { enabled: true } });
    const settingsFile = path.join(where.project, '.claude', 'settings.json');
    const before = fs.readFileSync(settingsFile, 'utf8');
    fs.writeFileSync(path.join(where.project, 'flag-settings.json'), '{}');
    const run = await runScripted(
      where,
      [
        bashTurn('computed', { command: 'd=.claude; echo x > "$d/settings.json"' }),
        bashTurn('local', { command: 'd=.claude; echo "{\\"hooks\\":{}}" > "$d/settings.local.json"' }),
        bashTurn('alias', { command: 'ln -s .claude alias && f=alias/settings.json; echo x > "$f"' }),
        bashTurn('flag', { command: 'f=flag-settings.json; echo x > "$f"' }),
        bashTurn('legit', { command: 'f=notes.txt; echo ok > "$f" && cat notes.txt' }),
      ],
      {
        args: ['--permission-mode', 'bypassPermissions', '--settings', 'flag-settings.json'],
        env: { IS_SANDBOX: '1' },
      },
    );
    expect(run.status).toBe(0);
    for (const id of ['computed', 'local', 'flag'])
      expect(run.results[id]).toMatch(
        /Read-only file system|Permission denied|Operation not permitted|Device or resource busy/,
      );
    // `ln -s .claude alias` names a `.claude` entry, which the policy refuses before the sandbox sees it.
    expect(run.results['alias']).toMatch(
      /Read-only file system|Permission denied|Operation not permitted|Device or resource busy|holds hookloop configuration/,
    );
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(where.project, '.claude', 'settings.local.json'))).toBe(false);
    expect(fs.readFileSync(path.join(where.project, 'flag-settings.json'), 'utf8')).toBe('{}');
    expect(run.results['legit']).toBe('ok');
  });

  it('autoAllowBashIfSandboxed runs a writing command in default mode without approval; deny rules still deny', async () => {
    const where = sandboxProject({ sandbox: { enabled: true }, permissions: { deny: ['Bash(touch:*)'] } });
    const run = await runScripted(where, [
      bashTurn('mkdir', { command: 'mkdir made-dir' }),
      bashTurn('touch', { command: 'touch denied-file' }),
    ]);
    expect(run.status).toBe(0);
    expect(fs.existsSync(path.join(where.project, 'made-dir'))).toBe(true);
    expect(run.results['touch']).toMatch(/has been denied/);
    expect(fs.existsSync(path.join(where.project, 'denied-file'))).toBe(false);
    expect(run.json?.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['touch']);
  });

  it('without autoAllowBashIfSandboxed, excluded commands and dangerouslyDisableSandbox, a writing command needs approval again', async () => {
    const where = sandboxProject({ sandbox: { enabled: true, excludedCommands: ['touch'] } });
    const run = await runScripted(where, [
      bashTurn('excluded', { command: 'touch excluded' }),
      bashTurn('escape', { command: 'mkdir escaped', dangerouslyDisableSandbox: true }),
      bashTurn('sandboxed', { command: 'mkdir sandboxed' }),
    ]);
    expect(run.json?.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['excluded', 'escape']);
    expect(fs.existsSync(path.join(where.project, 'excluded'))).toBe(false);
    expect(fs.existsSync(path.join(where.project, 'escaped'))).toBe(false);
    expect(fs.existsSync(path.join(where.project, 'sandboxed'))).toBe(true);

    const off = sandboxProject({ sandbox: { enabled: true, autoAllowBashIfSandboxed: false } });
    const asked = await runScripted(off, [bashTurn('mkdir', { command: 'mkdir not-made' })]);
    expect(asked.json?.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['mkdir']);
    expect(fs.existsSync(path.join(off.project, 'not-made'))).toBe(false);
  });

  it('carries Read and Edit deny rules into the sandbox; a rule it cannot enforce turns auto-allow off with one warning', async () => {
    const where = sandboxProject({
      sandbox: { enabled: true },
      permissions: { deny: ['Read(./secrets/**)', 'Edit(./generated/**)'] },
    });
    fs.mkdirSync(path.join(where.project, 'secrets'));
    fs.writeFileSync(path.join(where.project, 'secrets', 'key.txt'), 'TOP-SECRET');
    fs.mkdirSync(path.join(where.project, 'generated'));
    const run = await runScripted(where, [
      bashTurn('read', { command: 'd=secrets; cat "$d/key.txt"; echo " exit=$?"' }),
      bashTurn('write', { command: 'd=generated; echo x > "$d/out.txt"; echo " exit=$?"' }),
      bashTurn('other', { command: 'd=src; mkdir "$d" && echo made' }),
    ]);
    expect(run.results['read']).not.toContain('TOP-SECRET');
    expect(run.results['read']).toMatch(/exit=1/);
    expect(fs.existsSync(path.join(where.project, 'generated', 'out.txt'))).toBe(false);
    expect(run.results['other']).toBe('made');

    const globbed = sandboxProject({
      sandbox: { enabled: true },
      permissions: { deny: ['Edit(**/*.lock)'] },
    });
    const asked = await runScripted(globbed, [bashTurn('mkdir', { command: 'mkdir not-auto' })]);
    expect(asked.stderr.split('\n').filter((line) => line.includes('Edit(**/*.lock)'))).toHaveLength(1);
    expect(asked.json?.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['mkdir']);
  });

  it('with allowUnsandboxedCommands false, dangerouslyDisableSandbox is ignored: the command stays confined', async () => {
    const where = sandboxProject({ sandbox: { enabled: true, allowUnsandboxedCommands: false } });
    const canary = path.join(where.outside, 'canary');
    const run = await runScripted(
      where,
      [bashTurn('escape', { command: `touch ${canary}`, dangerouslyDisableSandbox: true })],
      {
        args: ['--permission-mode', 'bypassPermissions'],
        env: { IS_SANDBOX: '1' },
      },
    );
    expect(run.results['escape']).toMatch(/Read-only file system|Permission denied/);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('reaches a local server only when network.allowedDomains lists it', async () => {
    const server = http.createServer((_request, response) => response.end('pong'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // --noproxy '': curl would otherwise go direct for 127.0.0.1 (NO_PROXY), which the sandbox has no route for.
      // --retry-connrefused: inside the sandbox the runtime's socat bridge to its proxy starts with the
      // command, and on a loaded machine curl can reach for it first (exit 7); that race is not what
      // this test is about. A refusal by the allowlist is an answer (403), so it is never retried.
      const fetch = `curl -s -m 10 --retry 5 --retry-connrefused --retry-delay 1 --noproxy '' http://127.0.0.1:${port}/ping; echo " exit=$?"`;
      const closed = sandboxProject({ sandbox: { enabled: true } });
      const blocked = await runScripted(closed, [bashTurn('net', { command: fetch })]);
      expect(blocked.results['net']).not.toMatch(/pong/);
      expect(blocked.results['net']).toMatch(/blocked by network allowlist/);
      const open = sandboxProject({
        sandbox: { enabled: true, network: { allowedDomains: [`127.0.0.1:${port}`] } },
      });
      const allowed = await runScripted(open, [bashTurn('net', { command: fetch })]);
      expect(allowed.results['net']).toMatch(/^pong exit=0/);
    } finally {
      server.close();
    }
  });

  it('SIGTERM still ends a CLI run with the sandbox on (the runtime does not keep the process alive)', async () => {
    const where = sandboxProject({ sandbox: { enabled: true } });
    const script = path.join(where.root, 'script.json');
    fs.writeFileSync(
      script,
      JSON.stringify([
        bashTurn('long', { command: 'touch started; sleep 30; touch late' }),
        [{ type: 'text', text: 'done' }],
      ]),
    );
    const child = spawn(process.execPath, [CLI, '-p', 'go', '--model-script', script], {
      cwd: where.project,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: where.home },
      stdio: 'ignore',
    });
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const started = path.join(where.project, 'started');
    while (!fs.existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    await ended;
    expect(fs.existsSync(path.join(where.project, 'late'))).toBe(false);
  });

  it('failIfUnavailable turns a missing bubblewrap into an error; without it, one warning naming the package and no auto-allow', async () => {
    const failing = sandboxProject({
      sandbox: { enabled: true, failIfUnavailable: true, bwrapPath: '/nonexistent/bwrap' },
    });
    const refused = await runScripted(failing, [bashTurn('mkdir', { command: 'mkdir never' })]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^hookloop: .*sandbox.*bubblewrap/m);
    expect(fs.existsSync(path.join(failing.project, 'never'))).toBe(false);

    const warned = sandboxProject({ sandbox: { enabled: true, bwrapPath: '/nonexistent/bwrap' } });
    const run = await runScripted(warned, [bashTurn('mkdir', { command: 'mkdir not-auto' })]);
    expect(run.status).toBe(0);
    expect(run.stderr.split('\n').filter((line) => /bubblewrap/.test(line))).toHaveLength(1);
    expect(run.json?.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['mkdir']);
  });
});

describe('sandbox settings', () => {
  it('a wrongly typed sandbox field is one line naming the file and the field', async () => {
    const where = sandboxProject({ sandbox: { enabled: 'yes' } });
    const run = await runScripted(where, []);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/settings\.json: sandbox\.enabled: expected true or false/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
