import path from 'node:path';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { ConfigError, describeError, HookloopError } from '../errors.js';
import { loadAgents } from '../agents/load-agents.js';
import { loadSkills } from '../skills/load-skills.js';
import { loadHookSetup } from '../hooks/plugins/hook-setup.js';
import { closePersistentHooks } from '../hooks/transports/persistent-command.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import { resumeAgent } from '../loop/resume-agent.js';
import { runAgent, type RunOptions, type RunResult } from '../loop/run-agent.js';
import type { ModelClient } from '../model/model-client.js';
import { ProviderRequestError } from '../model/provider-errors.js';
import { headlessApprover, ttyApprover } from '../permissions/approvers.js';
import { loadMcpConfig } from '../mcp/load-mcp-config.js';
import { resolveConfigDir } from '../session/paths.js';
import type { PendingDecisions } from '../session/pending-calls.js';
import { builtinTools } from '../tools/builtin/index.js';
import { configurationFiles } from './configuration-files.js';
import { SessionHookEngine } from './hooks-command/session-engine.js';
import { startSessionHooks, type SessionServices } from './hooks-command/session-hooks.js';
import { lifecycleLog } from './lifecycle-log.js';
import { resolvePermissionMode } from './permission-mode.js';
import { parseArgs, type RunCommandOptions } from './parse-args.js';
import { openRequestLog, type RequestLog } from './request-log.js';
import { exitCodeOf, resultJson } from './result-json.js';
import { cliSandboxOptions } from './sandbox-options.js';
import { readSessionFlags } from './session-flags.js';
import { createModel, describeSelection, selectModel } from './select-model.js';
import { headlessPrompt, NO_PRINT_INPUT } from './stdin-prompt.js';
import { startTelemetry } from './telemetry-sdk.js';
import { streamJsonWriter, textStreamPrinter } from './stream-output.js';
import { watchTerminationSignals } from './termination-signals.js';
import type { CliIo } from './cli-io.js';

export type { CliIo } from './cli-io.js';

/** The message shown when no model is configured. */
export const NO_MODEL_MESSAGE =
  'hookloop: no model configured. Set ANTHROPIC_API_KEY (Anthropic Messages API), or OPENAI_API_KEY or OPENAI_BASE_URL with OPENAI_MODEL ' +
  '(any OpenAI-compatible server), or pass --provider and --model; replay a scripted model with --model-script FILE ' +
  '(a scenario.json or an array of turns), or run `hookloop demo` for the offline demo.';

/**
 * The `hookloop` command. Returns the exit code: 0 success, 1 a run that ended in error,
 * 2 bad input (flags, settings, files: one line on stderr naming the file and field), 128 + the
 * signal's number when SIGINT (130), SIGTERM (143) or SIGHUP (129) ended the run (see termination-signals.ts).
 * Never throws and never prints a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const line = (stream: NodeJS.WritableStream) => (text: string) => stream.write(`${text}\n`);
  try {
    const command = parseArgs(argv, packageVersion());
    if (command.command === 'info') {
      io.stdout.write(command.text);
      return command.exitCode;
    }
    // Each subcommand's modules load only when it runs: a `-p` run pays for none of them.
    if (command.command === 'demo') return await (await import('./demo.js')).runDemo({ keep: command.keep, write: line(io.stdout), writeError: line(io.stderr) });
    if (command.command === 'hooks') return await (await import('./hooks-command/run-hooks-command.js')).runHooksCommand(command, io, runPrompt);
    if (command.command === 'mcp') return await (await import('./mcp-command.js')).runMcpCommand(command, io);
    if (command.command === 'timeline') return await (await import('./timeline-command.js')).runTimelineCommand(command, io);
    return await runPrompt(command, io);
  } catch (error) {
    if (error instanceof HookloopError) {
      io.stderr.write(`hookloop: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`hookloop: internal error: ${describeError(error)}\n`);
    return 1;
  }
}

async function runPrompt(options: RunCommandOptions, io: CliIo, services: SessionServices = {}): Promise<number> {
  // On a terminal without -p: an interactive session (the prompt, if any, is its first).
  const interactive = !options.print && io.stdin.isTTY === true;
  const warn = (text: string) => io.stderr.write(`hookloop: warning: ${text}\n`);
  // Headless: the argument and whatever is piped on stdin, as in Claude Code.
  // `--approve`/`--deny` continue a saved session's pending calls: there is no prompt to read.
  if (options.decisions !== undefined && options.prompt !== undefined) throw new ConfigError('--approve/--deny continue the pending tool calls of the resumed session; they take no prompt', { field: '-p' });
  // `-p --resume ID` without a prompt may go on with the session's pending calls (below), as Claude Code does.
  const resuming = options.resume !== undefined || options.continue;
  // stream-json input: stdin carries the session's messages, not one prompt.
  const streamInput = options.inputFormat === 'stream-json';
  const prompt = interactive || options.decisions !== undefined || streamInput ? options.prompt : await headlessPrompt(options.prompt, io.stdin, { print: options.print && !resuming, warn });
  if (prompt === undefined && !interactive && options.decisions === undefined && !resuming && !streamInput) throw new ConfigError('no prompt: pass one with -p "PROMPT" or on stdin, or start hookloop on a terminal for an interactive session', { field: '-p' });
  const projectDir = io.cwd;
  const sessionFlags = readSessionFlags(options, { projectDir, homeDir: io.homeDir, env: io.env ?? process.env });
  const decisions = options.decisions ?? pendingWithoutDecisions(!interactive && prompt === undefined && !streamInput, sessionFlags.resume?.pending);
  const setupOptions = { projectDir, homeDir: io.homeDir, ...(options.settings !== undefined ? { flagSettings: options.settings } : {}), pluginDirs: options.pluginDirs };
  const setup = loadHookSetup(setupOptions);
  const settings = setup.settings;
  const mcp = loadMcpConfig({
    projectDir,
    homeDir: io.homeDir,
    env: io.env ?? process.env,
    mcpConfigs: options.mcpConfigs,
    strict: options.strictMcpConfig,
    plugins: setup.plugins,
    ...(options.settings !== undefined ? { flagSettings: options.settings } : {}),
    interactive,
  });
  const selection = selectModel(options, io.env ?? process.env);
  if (selection.provider === 'none') {
    io.stderr.write(`${NO_MODEL_MESSAGE}\n`);
    return 2;
  }
  for (const text of mcp.warnings) warn(text);
  // Subagent types for the Agent tool: --agents, .claude/agents, ~/.claude/agents, plugins, general-purpose.
  const agents = loadAgents({ projectDir, configDir: resolveConfigDir(sessionFlags.configDir), plugins: setup.plugins, ...(options.agents !== undefined ? { agentsJson: options.agents } : {}) });
  for (const text of agents.warnings) warn(text);
  const skills = loadSkills({ projectDir, configDir: resolveConfigDir(sessionFlags.configDir), plugins: setup.plugins });
  for (const text of skills.warnings) warn(text);
  // Interactive: the person approves the project's new .mcp.json servers, as in Claude Code.
  const interactiveParts = interactive ? await importInteractive() : undefined;
  const approved = interactiveParts ? await interactiveParts.approveProjectServers(mcp.skipped, { input: io.stdin, output: io.stderr, projectDir }) : [];
  const mcpServers = [...mcp.servers, ...approved.filter((entry) => !mcp.servers.some((server) => server.name === entry.name))];
  const provider = await createModel(selection, {
    projectDir,
    onRetry: ({ attempt, delayMs, error }) => warn(`${describeModelError(error)}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s`),
  });
  if (options.verbose) io.stderr.write(`[Model] ${describeSelection(selection)}\n`);
  const failures: string[] = [];
  const requestLog = options.recordRequests !== undefined ? openRequestLog(options.recordRequests) : undefined;
  const model = observedModel(provider, requestLog, failures);

  const hooks = new SessionHookEngine({
    concurrency: settings.hookConcurrency,
  });
  // Settings and plugin handlers, hot reload of the settings files (ConfigChange), and `hooks record`'s recorder.
  const sessionHooks = startSessionHooks({
    ...services,
    engine: hooks,
    setup,
    setupOptions,
    register: (handlers) => registerSettingsHandlers(hooks, handlers, projectDir),
    warn,
    notify: (text) => io.stderr.write(`${text}\n`),
    verbose: options.verbose,
  });

  const controller = new AbortController();
  // SIGINT, SIGTERM and SIGHUP end a run alike: abort, pair every call, kill tool processes, SessionEnd, exit 128+n.
  const termination = watchTerminationSignals({
    interactive,
    abort: () => controller.abort(),
    notify: (text) => io.stderr.write(`${text}\n`),
  });
  const sessionId = sessionFlags.resume?.sessionId ?? options.sessionId ?? randomUUID();
  const output = outputObservers(interactive ? 'text' : options.outputFormat, io, sessionId, options.includePartialMessages);
  const writeInit = () => {
    const init = { type: 'system', subtype: 'init', cwd: projectDir, session_id: sessionId, model: selection.provider === 'scripted' ? 'scripted' : selection.options.model, provider: selection.provider };
    io.stdout.write(`${JSON.stringify(init)}\n`);
  };
  if (options.outputFormat === 'stream-json') writeInit();
  // Before the run is built: the run traces only when a provider is registered by then.
  const telemetry = await startTelemetry(io.env ?? process.env, packageVersion(), warn);
  try {
    const runOptions: RunOptions = {
      model,
      projectDir,
      tools: builtinTools(),
      agents: agents.agents,
      skills: skills.skills,
      ...(mcpServers.length > 0 ? { mcpServers } : {}),
      hooks,
      permissions: {
        rules: {
          allow: [...settings.permissions.allow, ...options.allowedTools],
          ask: [...settings.permissions.ask],
          deny: [...settings.permissions.deny, ...options.disallowedTools],
        },
        ruleSources: {
          allow: [...settings.permissionSources.allow, ...options.allowedTools.map(() => '--allowedTools')],
          ask: [...settings.permissionSources.ask],
          deny: [...settings.permissionSources.deny, ...options.disallowedTools.map(() => '--disallowedTools')],
        },
        mode: resolvePermissionMode(options.permissionMode, settings.defaultMode, warn),
        autoMode: options.permissionMode === 'auto',
        additionalDirectories: [...settings.additionalDirectories, ...options.addDirs],
      },
      // --mcp-config files name processes the next session starts: the model may not write them either.
      configurationFiles: [...configurationFiles(setup, setupOptions), ...options.mcpConfigs.filter((value) => !value.trim().startsWith('{')).map((file) => path.resolve(projectDir, file))],
      approver: interactive ? ttyApprover({ input: io.stdin, output: io.stderr }) : headlessApprover,
      ...(interactiveParts ? { elicit: interactiveParts.ttyElicitor({ input: io.stdin, output: io.stderr }) } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      sessionId,
      timelineEvents: true,
      signal: controller.signal,
      observers: [lifecycleLog((text) => io.stderr.write(`${text}\n`), options.verbose), ...output.observers, ...(interactiveParts ? [interactiveParts.interactiveActivity((line) => io.stderr.write(`${line}\n`), (line) => io.stdout.write(`${line}\n`))] : [])],
      configDir: sessionFlags.configDir,
      ...(settings.sandbox !== undefined ? { sandbox: cliSandboxOptions(settings.sandbox, setup, setupOptions) } : {}),
      ...(sessionFlags.resume ? { resume: sessionFlags.resume } : {}),
      ...(sessionFlags.compaction ? { compaction: sessionFlags.compaction } : {}),
    };
    if (streamInput && decisions === undefined) {
      const { runStreamInput } = await import('./stream-input.js');
      // Like Claude Code, every turn after the first opens with its own init line.
      const turnHooks = { beforeTurn: (index: number) => (index > 0 ? writeInit() : undefined), afterTurn: (result: RunResult) => printResult(result, options, io, output, failures, termination), warn };
      return await runStreamInput(runOptions, io, turnHooks, prompt).finally(() => requestLog?.close());
    }
    if (decisions !== undefined) {
      const result = await resumeAgent(decisions, runOptions).finally(() => requestLog?.close());
      return printResult(result, options, io, output, failures, termination);
    }
    if (interactiveParts || prompt === undefined) {
      const { runInteractiveSession } = interactiveParts ?? (await importInteractive());
      try {
        return termination.exitCode(await runInteractiveSession(runOptions, prompt, { input: io.stdin, output: io.stdout, notices: io.stderr }, output.alreadyPrinted));
      } finally {
        requestLog?.close();
      }
    }
    const result = await runAgent(prompt, runOptions);
    requestLog?.close();
    return printResult(result, options, io, output, failures, termination);
  } finally {
    await sessionHooks.close();
    // The session is over (SessionEnd has run): persistent hook processes end now, not with the process.
    await closePersistentHooks();
    termination.dispose();
    await telemetry?.shutdown();
  }
}

/** A headless run's end: the failure line, the JSON result or the answer, and the exit code. */
function printResult(result: RunResult, options: RunCommandOptions, io: CliIo, output: { alreadyPrinted: (text: string) => boolean }, failures: readonly string[], termination: { exitCode: (code: number) => number }): number {
  if (result.terminalReason === 'api_error') io.stderr.write(`hookloop: model request failed: ${failures.at(-1) ?? result.result}\n`);
  if (options.outputFormat === 'json' || options.outputFormat === 'stream-json') io.stdout.write(`${JSON.stringify(resultJson(result))}\n`);
  else if (result.result && !output.alreadyPrinted(result.result)) io.stdout.write(`${result.result}\n`);
  return termination.exitCode(exitCodeOf(result));
}

/** How the run's output reaches stdout: streamed text (text), nothing until the end (json), or one JSON line per event (stream-json). */
function outputObservers(format: RunCommandOptions['outputFormat'], io: CliIo, sessionId: string, partialMessages = false) {
  if (format === 'stream-json') return { observers: [streamJsonWriter((line) => io.stdout.write(line), sessionId, { partialMessages })], alreadyPrinted: () => false };
  if (format === 'json') return { observers: [], alreadyPrinted: () => false };
  const printer = textStreamPrinter((text) => io.stdout.write(text));
  return { observers: [printer.observer], alreadyPrinted: printer.alreadyPrinted };
}

/** One line for a failed model request: `anthropic: HTTP 401 authentication_error: invalid x-api-key (not retried)`. */
function describeModelError(error: unknown): string {
  return error instanceof ProviderRequestError ? error.describe() : describeError(error);
}

/** The model, with every request it receives appended to `requestLog` (when given) and each failure described in `failures`, for stderr. */
function observedModel(model: ModelClient, requestLog: RequestLog | undefined, failures: string[]): ModelClient {
  // The provider's model id stays visible (model-call hooks report it as `model`).
  const id = (model as { model?: unknown }).model;
  return {
    name: model.name,
    ...(typeof id === 'string' ? { model: id } : {}),
    complete: (request) => {
      requestLog?.append(request);
      return model.complete(request).catch((error: unknown) => {
        failures.push(describeModelError(error));
        throw error;
      });
    },
  };
}

/** What only an interactive session uses, loaded when one starts. */
async function importInteractive() {
  const [session, servers, elicitation] = await Promise.all([import('./interactive.js'), import('./approve-project-servers.js'), import('./tty-elicitation.js')]);
  return { ...session, ...servers, ...elicitation };
}

function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), homeDir: os.homedir() };
}

/** This package's version, read from package.json next to the build output. */
export function packageVersion(): string {
  try {
    const url = new URL('../../../package.json', import.meta.url);
    return (JSON.parse(fs.readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * `-p --resume ID` (or `--continue`) with no prompt and no `--approve`/`--deny`: when the session
 * left calls pending, they go through PreToolUse and the policy again, undecided, exactly as Claude
 * Code 2.1.328 resumes a deferred tool call (recorded: its PreToolUse fired again with the same
 * tool_use_id and input, then the call ran under the allow rule and the model went on). Returns the
 * empty decisions that do that, or throws the headless "no input" error when nothing is pending.
 */
function pendingWithoutDecisions(headlessWithoutPrompt: boolean, pending: readonly unknown[] | undefined): PendingDecisions | undefined {
  if (!headlessWithoutPrompt) return undefined;
  if (pending === undefined || pending.length === 0) throw new ConfigError(`-p: ${NO_PRINT_INPUT}`, { field: '-p' });
  return {};
}
