// The official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance) against
// hookloop's built CLI: for each scenario the suite starts its own servers on localhost and runs
// fixtures/conformance/client.mjs, which drives `hookloop mcp login` and `hookloop -p` as a user would.
// Needs `npm run build` first. Skipped, saying so, when the package is not installed; point
// HOOKLOOP_MCP_CONFORMANCE_DIR at an installed copy to run it from elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURES = fileURLToPath(new URL('./fixtures/conformance/', import.meta.url));

function suiteDir(): string | undefined {
  const configured = process.env['HOOKLOOP_MCP_CONFORMANCE_DIR'];
  if (configured) return fs.existsSync(path.join(configured, 'package.json')) ? configured : undefined;
  try {
    return path.dirname(
      createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'),
    );
  } catch {
    return undefined;
  }
}

// Every client scenario of the installed suite is expected to pass.
const NOT_SUPPORTED = new Set<string>([]);

const dir = suiteDir();
const conformance = (args: readonly string[], cwd: string) =>
  spawnSync(
    process.execPath,
    ['--import', path.join(FIXTURES, 'node20-globsync.mjs'), path.join(dir!, 'dist/index.js'), ...args],
    { cwd, encoding: 'utf8', timeout: 175_000 },
  );

/** The client scenarios the installed suite lists (`conformance list`, its "Client scenarios" part). */
function clientScenarios(): string[] {
  const listed = conformance(['list'], os.tmpdir()).stdout;
  const part = listed.slice(listed.indexOf('Client scenarios'));
  return [...part.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

if (!dir) {
  describe('MCP conformance suite (client scenarios)', () => {
    it.skip('@modelcontextprotocol/conformance is not installed (add it to devDependencies, or set HOOKLOOP_MCP_CONFORMANCE_DIR)', () =>
      undefined);
  });
} else {
  const scenarios = clientScenarios();
  describe('MCP conformance suite (client scenarios)', () => {
    it('lists the client scenarios', () => {
      expect(scenarios.length).toBeGreaterThanOrEqual(26);
    });
    it.each(scenarios.filter((name) => !NOT_SUPPORTED.has(name)))(
      '%s passes',
      { timeout: 200_000 },
      (scenario) => {
        // The suite's own budget per client (default 30 s) is raised: a login and a run are two CLI
        // starts, which a loaded machine can take longer than that for.
        const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-conformance-run-'));
        const run = conformance(
          [
            'client',
            '--command',
            `"${process.execPath}" "${path.join(FIXTURES, 'client.mjs')}"`,
            '--scenario',
            scenario,
            '--timeout',
            '150000',
            '-o',
            path.join(work, 'results'),
          ],
          work,
        );
        const output = `${run.stdout}\n${run.stderr}`;
        // Every check of the scenario, not only the run's exit code: a check that failed is named in the message.
        expect(output.match(/^.*\bFAILURE\b.*$/gm) ?? [], output.slice(-3000)).toEqual([]);
        expect(output).toMatch(/OVERALL: PASSED/);
        expect(run.status).toBe(0);
      },
    );
  });
}
