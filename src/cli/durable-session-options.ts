import { ConfigError } from '../errors.js';
import { HookEngine } from '../hooks/hook-engine.js';
import { registerSettingsHandlers } from '../hooks/transports/settings-handlers.js';
import type { ModelClient, ModelRequest } from '../model/model-client.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { headlessApprover } from '../permissions/plain-approvers.js';
import { environmentLines } from '../prompt/environment.js';
import { readClaudeCodeSetup } from '../run/claude-code-setup.js';
import type { RunOptions } from '../run/run-options.js';
import { startSessionHooks } from './hooks-command/session-hooks.js';
import { lifecycleLog } from './lifecycle-log.js';
import { loadModelScriptFile } from './load-model-script.js';
import type { RunCommandOptions } from './run-command-types.js';
import { createModel, selectModel, type ModelSelection } from './select-model.js';
import { readSessionFlags } from './session-flags.js';
import { assembleSystemPrompt } from './system-prompt-flags.js';
import type { CliIo } from './cli-io.js';
import { NO_MODEL_MESSAGE } from './run-prompt.js';

/**
 * The RunOptions of every session a `hookloop serve` worker runs, read from the same flags, settings
 * files, plugins, MCP configs, subagents and skills as a headless `hookloop -p` run in `io.cwd`
 * (headless approver: a call the policy asks about is denied unless a hook decides; `defer` waits
 * for a decision on the server). They are read again for each attempt of each prompt, so a settings
 * change reaches the next prompt; a retried attempt must find the same setup, or its replay diverges.
 * A scripted model (`--model-script`) answers a conversation with the next of the turns it may use
 * (by `match`) after the ones it already has, not by call order, because a replay takes its
 * journaled turns without asking the model, and one worker serves many sessions.
 * @throws ConfigError (at once, not per session) when no model is configured or a flag cannot apply to a worker.
 */
export function durableSessionOptions(
  options: RunCommandOptions,
  io: CliIo,
): (sessionKey: string) => Promise<RunOptions> {
  const env = io.env ?? process.env;
  const selection = selectModel(options, env);
  if (selection.provider === 'none') throw new ConfigError(NO_MODEL_MESSAGE.replace(/^hookloop: /, ''));
  const projectDir = io.cwd;
  const warn = (text: string) => io.stderr.write(`hookloop serve: warning: ${text}\n`);
  const { configDir, compaction } = readSessionFlags(
    { continue: false, resume: undefined },
    { projectDir, homeDir: io.homeDir, env },
  );
  return async () => {
    const claudeCode = readClaudeCodeSetup(projectDir, {
      homeDir: io.homeDir,
      env,
      configDir,
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
      interactive: false,
    });
    for (const text of claudeCode.warnings) warn(text);
    const hooks = new HookEngine({ concurrency: claudeCode.hookSetup.settings.hookConcurrency });
    // No hot reload in a worker: each attempt reads the settings afresh, and a watcher per attempt would pile up.
    startSessionHooks({
      engine: hooks,
      setup: claudeCode.hookSetup,
      setupOptions: claudeCode.setupOptions,
      register: (handlers) => registerSettingsHandlers(hooks, handlers, projectDir),
      warn,
      notify: (text) => io.stderr.write(`${text}\n`),
      verbose: options.verbose,
      watch: false,
    });
    const { mcpServers, ...fromClaudeCode } = claudeCode.options;
    const tools = fromClaudeCode.tools ?? [];
    const toolNames = ('list' in tools ? tools.list() : tools).map((tool) => tool.name);
    const modelId = selection.provider === 'scripted' ? undefined : selection.options.model;
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
    return {
      ...fromClaudeCode,
      ...(Array.isArray(mcpServers) && mcpServers.length > 0 ? { mcpServers } : {}),
      model: await workerModel(selection, projectDir, warn),
      system,
      hooks,
      approver: headlessApprover,
      ...(options.permissionPromptTool !== undefined
        ? { permissionPromptTool: options.permissionPromptTool }
        : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
      ...(compaction ? { compaction } : {}),
      timelineEvents: true,
      observers: [lifecycleLog((text) => io.stderr.write(`${text}\n`), options.verbose)],
    };
  };
}

async function workerModel(
  selection: Exclude<ModelSelection, { provider: 'none' }>,
  projectDir: string,
  warn: (text: string) => void,
): Promise<ModelClient> {
  if (selection.provider !== 'scripted')
    return createModel(selection, {
      projectDir,
      onRetry: ({ attempt, delayMs }) => warn(`model request failed; retry ${attempt} in ${delayMs} ms`),
    });
  const script = loadModelScriptFile(selection.modelScript, projectDir);
  return {
    name: 'scripted',
    complete: (request: ModelRequest) => {
      const answered = request.messages.filter((message) => message.role === 'assistant').length;
      const haystack = request.system + '\n' + JSON.stringify(request.messages);
      // The turns this conversation may use (a turn's `match` must occur in it), past those it has.
      const eligible = script.turns.filter((turn) => {
        const match = Array.isArray(turn) ? undefined : (turn as { match?: string }).match;
        return match === undefined || haystack.includes(match);
      });
      const rest = request.tools.length === 0 ? script.turns : eligible.slice(answered);
      return new ScriptedModel(rest, {
        mode: 'lenient',
        record: false,
        ...(script.aux ? { aux: script.aux } : {}),
      }).complete(request);
    },
  };
}
