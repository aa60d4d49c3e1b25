import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors.js';
import { HookEngine } from '../hooks/hook-engine.js';
import { closePersistentHooks } from '../hooks/transports/persistent-command.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import { readClaudeCodeSetup } from '../run/claude-code-setup.js';
import { resumeAgent } from '../run/resume-agent.js';
import { runAgent, type RunOptions, type RunResult } from '../run/run-agent.js';
import { headlessApprover } from '../permissions/plain-approvers.js';
import { ttyApprover } from './tty-approver.js';
import type { PendingDecisions } from '../session/pending-calls.js';
import { environmentLines } from '../prompt/environment.js';
import { assembleSystemPrompt } from './system-prompt-flags.js';
import { fallbackSelections, withFallbacks } from './fallback-model.js';
import { forkSession } from './fork-session.js';
import { resolveConfigDir } from '../session/paths.js';
import { priceOf } from '../model/pricing.js';
import { startSessionHooks, type SessionServices } from './hooks-command/session-hooks.js';
import { lifecycleLog } from './lifecycle-log.js';
import { type RunCommandOptions } from './parse-args.js';
import { openRequestLog } from './request-log.js';
import { readSessionFlags } from './session-flags.js';
import { createModel, describeSelection, selectModel } from './select-model.js';
import { headlessPrompt, NO_PRINT_INPUT } from './stdin-prompt.js';
import { startTelemetry } from './telemetry-sdk.js';
import { watchTerminationSignals } from './termination-signals.js';
import type { CliIo } from './cli-io.js';
import { describeModelError, observedModel } from './observed-model.js';
import { outputObservers, printResult } from './run-output.js';
import { packageVersion } from './package-version.js';

/** The message shown when no model is configured. */
export const NO_MODEL_MESSAGE =
  'hookloop: no model configured. Set ANTHROPIC_API_KEY (Anthropic Messages API), or OPENAI_API_KEY or OPENAI_BASE_URL with OPENAI_MODEL ' +
  '(any OpenAI-compatible server), or pass --provider and --model; replay a scripted model with --model-script FILE ' +
  '(a scenario.json or an array of turns), or run `hookloop demo` for the offline demo.';

/**
 * A session from the command line: reads the prompt and the Claude Code setup, builds the model and
 * the hooks, runs (headless, stream-json, decisions on pending calls, or interactive) and prints the
 * result. Returns the exit code; throws HookloopError for bad input, which `main` prints as one line.
 */
export async function runPrompt(
  options: RunCommandOptions,
  io: CliIo,
  services: SessionServices = {},
): Promise<number> {
  // On a terminal without -p: an interactive session (the prompt, if any, is its first).
  const interactive = !options.print && io.stdin.isTTY === true;
  const warn = (text: string) => io.stderr.write(`hookloop: warning: ${text}\n`);
  // Headless: the argument and whatever is piped on stdin, as in Claude Code.
  // `--approve`/`--deny` continue a saved session's pending calls: there is no prompt to read.
  if (options.decisions !== undefined && options.prompt !== undefined)
    throw new ConfigError(
      '--approve/--deny continue the pending tool calls of the resumed session; they take no prompt',
      { field: '-p' },
    );
  // `-p --resume ID` without a prompt may go on with the session's pending calls (below), as Claude Code does.
  const resuming = options.resume !== undefined || options.continue;
  // stream-json input: stdin carries the session's messages, not one prompt.
  const streamInput = options.inputFormat === 'stream-json';
  const prompt =
    interactive || options.decisions !== undefined || streamInput
      ? options.prompt
      : await headlessPrompt(options.prompt, io.stdin, { print: options.print && !resuming, warn });
  if (prompt === undefined && !interactive && options.decisions === undefined && !resuming && !streamInput)
    throw new ConfigError(
      'no prompt: pass one with -p "PROMPT" or on stdin, or start hookloop on a terminal for an interactive session',
      { field: '-p' },
    );
  const projectDir = io.cwd;
  const readFlags = readSessionFlags(options, {
    projectDir,
    homeDir: io.homeDir,
    env: io.env ?? process.env,
  });
  // --fork-session: the resumed conversation goes on under a new id, in a copy of its transcript.
  const sessionFlags =
    options.forkSession && readFlags.resume
      ? {
          ...readFlags,
          resume: forkSession(readFlags.resume, resolveConfigDir(readFlags.configDir), projectDir),
        }
      : readFlags;
  const decisions =
    options.decisions ??
    pendingWithoutDecisions(
      !interactive && prompt === undefined && !streamInput,
      sessionFlags.resume?.pending,
    );
  // Settings, plugins, MCP configs, subagent types, skills, rules and the sandbox, as `claude -p` reads them.
  const claudeCode = readClaudeCodeSetup(projectDir, {
    homeDir: io.homeDir,
    env: io.env ?? process.env,
    configDir: sessionFlags.configDir,
    ...(options.settings !== undefined ? { settings: options.settings } : {}),
    ...(options.settingSources !== undefined ? { settingSources: options.settingSources } : {}),
    pluginDirs: options.pluginDirs,
    mcpConfigs: options.mcpConfigs,
    strictMcpConfig: options.strictMcpConfig,
    ...(options.agents !== undefined ? { agents: options.agents } : {}),
    allowedTools: options.allowedTools,
    disallowedTools: options.disallowedTools,
    addDirs: options.addDirs,
    ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
    interactive,
  });
  const { hookSetup: setup, setupOptions } = claudeCode;
  const settings = setup.settings;
  const selection = selectModel(options, io.env ?? process.env);
  if (selection.provider === 'none') {
    io.stderr.write(`${NO_MODEL_MESSAGE}\n`);
    return 2;
  }
  for (const text of claudeCode.warnings) warn(text);
  // Interactive: the person approves the project's new .mcp.json servers, as in Claude Code.
  const interactiveParts = interactive ? await importInteractive() : undefined;
  const approved = interactiveParts
    ? await interactiveParts.approveProjectServers(claudeCode.skippedServers, {
        input: io.stdin,
        output: io.stderr,
        projectDir,
      })
    : [];
  const configured = claudeCode.options.mcpServers;
  const fromFiles = Array.isArray(configured) ? configured : [];
  const mcpServers = [
    ...fromFiles,
    ...approved.filter((entry) => !fromFiles.some((server) => server.name === entry.name)),
  ];
  const modelContext = {
    projectDir,
    onRetry: ({ attempt, delayMs, error }: { attempt: number; delayMs: number; error: unknown }) =>
      warn(`${describeModelError(error)}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s`),
  };
  // --fallback-model: the main model gets fewer attempts, then each fallback on the same server.
  const fallback = fallbackSelections(selection, options.fallbackModels);
  if (options.fallbackModels.length > 0 && fallback === undefined)
    warn('--fallback-model ignored: a scripted model has no other model to switch to');
  const provider = fallback
    ? withFallbacks(
        await createModel(fallback.main, modelContext),
        await Promise.all(
          fallback.fallbacks.map(async (entry) => ({
            id: entry.options.model,
            client: await createModel(entry, modelContext),
          })),
        ),
        warn,
      )
    : await createModel(selection, modelContext);
  if (
    options.maxBudgetUsd !== undefined &&
    (selection.provider === 'scripted' || priceOf(selection.options.model) === undefined)
  ) {
    warn(
      `--max-budget-usd: no price is known for ${selection.provider === 'scripted' ? 'the scripted model' : selection.options.model}, so its requests count nothing towards the budget`,
    );
  }
  if (options.verbose) io.stderr.write(`[Model] ${describeSelection(selection)}\n`);
  const failures: string[] = [];
  const requestLog =
    options.recordRequests !== undefined ? openRequestLog(options.recordRequests) : undefined;
  const model = observedModel(provider, requestLog, failures);

  const hooks = new HookEngine({
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
  const output = outputObservers(
    interactive ? 'text' : options.outputFormat,
    io,
    sessionId,
    options.includePartialMessages,
  );
  const writeInit = () => {
    const init = {
      type: 'system',
      subtype: 'init',
      cwd: projectDir,
      session_id: sessionId,
      model: selection.provider === 'scripted' ? 'scripted' : selection.options.model,
      provider: selection.provider,
    };
    io.stdout.write(`${JSON.stringify(init)}\n`);
  };
  if (options.outputFormat === 'stream-json') writeInit();
  // Before the run is built: the run traces only when a provider is registered by then.
  const telemetry = await startTelemetry(io.env ?? process.env, packageVersion(), warn);
  try {
    const { mcpServers: _fromFiles, ...fromClaudeCode } = claudeCode.options;
    const tools = fromClaudeCode.tools ?? [];
    const modelId = selection.provider === 'scripted' ? undefined : selection.options.model;
    const toolNames = ('list' in tools ? tools.list() : tools).map((tool) => tool.name);
    const system = assembleSystemPrompt(
      options.systemPrompt,
      () => ({
        toolNames: [
          ...toolNames,
          ...((fromClaudeCode.agents?.length ?? 0) > 0 ? ['Agent'] : []),
          ...((fromClaudeCode.skills?.length ?? 0) > 0 ? ['Skill'] : []),
        ],
        permissionMode: fromClaudeCode.permissions?.mode ?? 'default',
        environment: environmentLines({
          cwd: projectDir,
          additionalDirectories: fromClaudeCode.permissions?.additionalDirectories ?? [],
          ...(modelId !== undefined ? { model: modelId } : {}),
          ...(io.env ? { env: io.env } : {}),
        }),
      }),
      projectDir,
    );
    const runOptions: RunOptions = {
      ...fromClaudeCode,
      model,
      ...(options.permissionPromptTool !== undefined
        ? { permissionPromptTool: options.permissionPromptTool }
        : {}),
      ...(mcpServers.length > 0 ? { mcpServers } : {}),
      system,
      hooks,
      approver: interactive
        ? ttyApprover({ input: io.stdin, output: io.stderr, callShown: true })
        : headlessApprover,
      ...(interactiveParts
        ? { elicit: interactiveParts.ttyElicitor({ input: io.stdin, output: io.stderr }) }
        : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
      sessionId,
      timelineEvents: true,
      signal: controller.signal,
      observers: [
        lifecycleLog((text) => io.stderr.write(`${text}\n`), options.verbose),
        ...output.observers,
        ...(interactiveParts
          ? [
              interactiveParts.interactiveActivity(
                (line) => io.stderr.write(`${line}\n`),
                (line) => io.stdout.write(`${line}\n`),
              ),
            ]
          : []),
      ],
      ...(sessionFlags.resume ? { resume: sessionFlags.resume } : {}),
      ...(sessionFlags.compaction ? { compaction: sessionFlags.compaction } : {}),
    };
    if (streamInput && decisions === undefined) {
      const { runStreamInput } = await import('./stream-input.js');
      // Like Claude Code, every turn after the first opens with its own init line.
      const turnHooks = {
        beforeTurn: (index: number) => (index > 0 ? writeInit() : undefined),
        afterTurn: (result: RunResult) => printResult(result, options, io, output, failures, termination),
        warn,
      };
      return await runStreamInput(runOptions, io, turnHooks, prompt).finally(() => requestLog?.close());
    }
    if (decisions !== undefined) {
      const result = await resumeAgent(decisions, runOptions).finally(() => requestLog?.close());
      return printResult(result, options, io, output, failures, termination);
    }
    if (interactiveParts || prompt === undefined) {
      const { runInteractiveSession } = interactiveParts ?? (await importInteractive());
      try {
        return termination.exitCode(
          await runInteractiveSession(
            runOptions,
            prompt,
            { input: io.stdin, output: io.stdout, notices: io.stderr },
            output.alreadyPrinted,
          ),
        );
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

/** What only an interactive session uses, loaded when one starts. */
async function importInteractive() {
  const [session, servers, elicitation] = await Promise.all([
    import('./interactive.js'),
    import('./approve-project-servers.js'),
    import('./tty-elicitation.js'),
  ]);
  return { ...session, ...servers, ...elicitation };
}

/**
 * `-p --resume ID` (or `--continue`) with no prompt and no `--approve`/`--deny`: when the session
 * left calls pending, they go through PreToolUse and the policy again, undecided, exactly as Claude
 * Code 2.1.328 resumes a deferred tool call (recorded: its PreToolUse fired again with the same
 * tool_use_id and input, then the call ran under the allow rule and the model went on). Returns the
 * empty decisions that do that, or throws the headless "no input" error when nothing is pending.
 */
function pendingWithoutDecisions(
  headlessWithoutPrompt: boolean,
  pending: readonly unknown[] | undefined,
): PendingDecisions | undefined {
  if (!headlessWithoutPrompt) return undefined;
  if (pending === undefined || pending.length === 0)
    throw new ConfigError(`-p: ${NO_PRINT_INPUT}`, { field: '-p' });
  return {};
}
