import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookEngine } from '../hooks/hook-engine.js';
import { loadSettings } from '../hooks/settings/load-settings.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import { makeDirectorySync } from '../files/make-directory.js';
import { runAgent } from '../run/run-agent.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { builtinTools } from '../tools/builtin/index.js';
import { registerDemoHooks } from './demo-hooks.js';
import { lifecycleLog } from './lifecycle-log.js';
import { loadModelScript } from './load-model-script.js';
import { openRequestLog } from './request-log.js';
import { loadMemory } from '../memory/load-memory.js';
import type { ModelClient } from '../model/model-client.js';
import { environmentLines } from '../prompt/environment.js';
import { renderSystemPrompt } from '../prompt/system-prompt.js';

/** Where the demo's sample project and script live (shipped with the package under examples/demo). */
export const DEMO_DIR = fileURLToPath(new URL('../../../examples/demo/', import.meta.url));

/**
 * `hookloop demo`: copies examples/demo/project to a temp dir and runs the scripted session of
 * examples/demo/script.json over it with real tools, real permission rules, the project's own
 * Claude Code hook script (.claude/settings.json) and the demo's in-process hooks. Prints the
 * lifecycle trace and a summary; returns the exit code (0 when the session completed). The model is
 * sent what a real one would be: hookloop's system prompt and the project's CLAUDE.md; with
 * `recordRequests` every request is appended to that file (as `--record-requests` writes it).
 * @throws ConfigError when `recordRequests` cannot be written.
 */
export async function runDemo(options: {
  keep: boolean;
  recordRequests?: string;
  write: (line: string) => void;
  writeError: (line: string) => void;
}): Promise<number> {
  const { write } = options;
  const projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-demo-')));
  fs.cpSync(path.join(DEMO_DIR, 'project'), projectDir, { recursive: true });
  const auditLog = path.join(projectDir, '.hookloop', 'audit.jsonl');

  write("hookloop demo: a SCRIPTED session. The model's turns are replayed from examples/demo/script.json;");
  write('the tools, permission rules and hooks are real and act on a copy of examples/demo/project.');
  write(`project: ${projectDir}`);
  write('');

  // The copy is the demo's own, made a moment ago: it is trusted as a user trusts a workspace in the
  // trust dialog, so its checked-in allow rules count (an untrusted project's would be ignored).
  const homeDir = path.join(projectDir, '.hookloop', 'home');
  makeDirectorySync(homeDir);
  fs.writeFileSync(
    path.join(homeDir, '.claude.json'),
    `${JSON.stringify({ projects: { [projectDir]: { hasTrustDialogAccepted: true } } })}\n`,
  );
  const settings = loadSettings({ projectDir, homeDir });
  const hooks = new HookEngine();
  registerSettingsHandlers(hooks, settings.handlers, projectDir);
  const tally = registerDemoHooks(hooks, { auditLog });

  const requestLog =
    options.recordRequests !== undefined ? openRequestLog(options.recordRequests) : undefined;
  const scripted = new ScriptedModel(loadModelScript(path.join(DEMO_DIR, 'script.json'), projectDir), {
    mode: 'strict',
  });
  const model: ModelClient = {
    name: scripted.name,
    complete: (request) => (requestLog?.append(request), scripted.complete(request)),
  };
  const tools = builtinTools();
  // The transcript stays inside the demo copy, so ~/.claude/projects gets no throwaway sessions.
  const configDir = path.join(projectDir, '.hookloop', 'claude');
  const result = await runAgent('Fix the greeting typo in src/greet.js and tidy up.', {
    model,
    projectDir,
    configDir,
    system: renderSystemPrompt({
      toolNames: tools.map((tool) => tool.name),
      permissionMode: 'default',
      environment: environmentLines({ cwd: projectDir }),
    }),
    memory: loadMemory({ cwd: projectDir, configDir, homeDir: path.join(projectDir, '.hookloop', 'home') })
      .files,
    tools,
    hooks,
    permissions: { rules: settings.permissions, mode: 'default' },
    observers: [lifecycleLog(write, true)],
  }).finally(() => requestLog?.close());

  write('');
  write(`Final answer: ${result.result}`);
  write('');
  write('Summary');
  write(`  tool calls run:       ${tally.ran}`);
  write(`  tool calls blocked:   ${tally.blocked.length} (${tally.blocked.join('; ')})`);
  write(`  inputs rewritten:     ${tally.rewrittenInputs}`);
  write(`  outputs truncated:    ${tally.truncatedOutputs}`);
  write(`  extra turns by Stop:  ${tally.stopContinuations}`);
  write(`  audit log:            ${auditLog} (${countLines(auditLog)} JSON lines)`);
  write(`  outcome:              ${result.terminalReason}`);
  if (!options.keep) {
    write(`  (the demo directory is removed; run \`npx hookloop demo --keep\` to look around)`);
    fs.rmSync(projectDir, { recursive: true, force: true });
  }
  return result.terminalReason === 'completed' ? 0 : 1;
}

function countLines(file: string): number {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}
