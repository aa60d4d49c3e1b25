import path from 'node:path';
import { ConfigError } from '../errors.js';
import { HookEngine } from '../hooks/hook-engine.js';
import type { RunObserver } from '../loop/run-events.js';
import { serverEntries, type McpServersOption } from '../mcp/mcp-servers.js';
import type { McpServerEntry } from '../mcp/server-config.js';
import type { ModelClient } from '../model/model-client.js';
import { environmentLines } from '../prompt/environment.js';
import { renderSystemPrompt } from '../prompt/system-prompt.js';
import { loadClaudeCodeSetup } from '../run/claude-code-setup.js';
import type { RunOptions } from '../run/run-options.js';
import { resolveConfigDir } from '../session/paths.js';
import type { ResumedSession } from '../session/resume.js';
import type { AnyTool } from '../tools/define-tool.js';
import { withoutProviderCredentials } from '../process/provider-credentials.js';
import { createModel, selectModel } from '../cli/select-model.js';
import { forkSession } from '../cli/fork-session.js';
import { canUseToolApprover } from './can-use-tool.js';
import { checkOptions } from './option-check.js';
import { registerSdkHooks } from './sdk-hooks.js';
import type { Options } from './sdk-options.js';
import { findResumed } from './store-resume.js';

/** A run made from `query()` options, and what its `init` message reports. */
export interface QueryRun {
  readonly runOptions: RunOptions;
  /** The model id the init and assistant messages name. */
  readonly modelName: string;
  readonly agentNames: readonly string[];
}

/**
 * Turns the Agent SDK's options into hookloop run options: Claude Code's files for `cwd` as
 * `settingSources` selects them (default all, as the SDK), then the options on top —
 * `allowedTools` / `disallowedTools` as allow and deny rules, `hooks` on the session's engine,
 * `canUseTool` as the approver, `mcpServers` beside the configured servers, `agents`, `systemPrompt`,
 * `resume` / `continue` / `forkSession`, `sessionStore` (the transcript's copy, and where a resume
 * reads a session the local folder lacks), the model (`hookloop.model`, else chosen from
 * `hookloop.provider`, `model` and `env` as the CLI chooses).
 * @throws ConfigError naming the option for anything that cannot be honoured (see checkOptions),
 *   no model configured, a session to resume that does not exist (locally or in the store), or a
 *   store read that outlasts `loadTimeoutMs`; the store's own rejection of a read.
 */
export async function queryRunOptions(
  options: Options,
  observer: RunObserver,
  signal: AbortSignal,
): Promise<QueryRun> {
  checkOptions(options);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const configDir = resolveConfigDir(options.hookloop?.configDir, env);
  // The SDK hands its process's stderr to `stderr`; hookloop's warnings are what it has to say there.
  const stderr = options.stderr ?? ((data: string) => process.stderr.write(data));
  const warn = (text: string) => stderr(`hookloop: warning: ${text}\n`);
  const hooks = new HookEngine();
  registerSdkHooks(hooks, options.hooks ?? {});
  const setup = await loadClaudeCodeSetup(cwd, {
    env,
    configDir,
    hooks,
    warn,
    ...(options.settingSources !== undefined ? { settingSources: options.settingSources } : {}),
    ...(options.settings !== undefined
      ? {
          settings:
            typeof options.settings === 'string' ? options.settings : JSON.stringify(options.settings),
        }
      : {}),
    ...(options.allowedTools !== undefined ? { allowedTools: options.allowedTools } : {}),
    ...(options.disallowedTools !== undefined ? { disallowedTools: options.disallowedTools } : {}),
    ...(options.additionalDirectories !== undefined ? { addDirs: options.additionalDirectories } : {}),
    ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
    ...(options.strictMcpConfig !== undefined ? { strictMcpConfig: options.strictMcpConfig } : {}),
    ...(options.agents !== undefined ? { agents: JSON.stringify(options.agents) } : {}),
  });
  const { model, modelName } = await queryModel(options, env, cwd);
  const tools = chosenTools(options, (setup.tools ?? []) as readonly AnyTool[]);
  const mcpServers = [
    ...((setup.mcpServers ?? []) as readonly McpServerEntry[]),
    ...serverEntries((options.mcpServers ?? {}) as unknown as McpServersOption),
  ];
  // CLAUDE.md files are read with the project's settings, as the SDK reads them.
  const memory = options.settingSources === undefined || options.settingSources.includes('project');
  const resume = await resumedSession(options, configDir, cwd);
  const listed = Array.isArray(options.tools) ? options.tools : undefined;
  const agents = listed && !listed.includes('Agent') && !listed.includes('Task') ? [] : (setup.agents ?? []);
  const runOptions: RunOptions = {
    ...setup,
    ...(memory ? {} : { memory: [] }),
    agents,
    ...(listed && !listed.includes('Skill') ? { skills: [] } : {}),
    model,
    tools,
    hooks,
    configDir,
    ...(mcpServers.length > 0 ? { mcpServers } : {}),
    system: systemPrompt(options, tools, { ...setup, agents }, modelName, cwd, env),
    ...(options.canUseTool ? { approver: canUseToolApprover(options.canUseTool) } : {}),
    ...(options.permissionPromptToolName !== undefined
      ? { permissionPromptTool: options.permissionPromptToolName }
      : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
    ...(options.persistSession === false ? { transcript: false } : {}),
    // The SDK keys a session's entries by the project folder, as projectKeyFor does (RunOptions' default).
    ...(options.sessionStore !== undefined ? { sessionStore: options.sessionStore } : {}),
    // The SDK's `env` is where its programs put the provider's key: the model reads it, Bash does not.
    ...(options.env !== undefined ? { env: withoutProviderCredentials(options.env) } : {}),
    ...(options.hookloop?.agentModel ? { agentModel: options.hookloop.agentModel } : {}),
    ...(resume ? { resume } : {}),
    ...(options.sessionId !== undefined && !resume ? { sessionId: options.sessionId } : {}),
    // The run's own warnings (a hook's answer it could not use, a resumed transcript's cut line) too.
    observers: [observer, (event) => (event.type === 'warning' ? warn(event.text) : undefined)],
    signal,
  };
  return { runOptions, modelName, agentNames: (runOptions.agents ?? []).map((agent) => agent.name) };
}

async function queryModel(
  options: Options,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<{ model: ModelClient; modelName: string }> {
  const given = options.hookloop?.model;
  if (given) return { model: given, modelName: options.model ?? given.name };
  const selection = selectModel({ provider: options.hookloop?.provider, model: options.model }, env);
  if (selection.provider === 'none')
    throw new ConfigError(
      'query(): no model configured: set options.hookloop.model, or ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL in options.env or the environment',
      { field: 'model' },
    );
  const model = await createModel(selection, { projectDir: cwd });
  return { model, modelName: selection.provider === 'scripted' ? 'scripted' : selection.options.model };
}

/** Tools the session adds itself when it has agents or skills; a `tools` list may name them. */
const SESSION_TOOLS = ['Agent', 'Task', 'Skill'];

/**
 * `tools`: a list of tool names offers only those (Agent and Skill included: without them in the
 * list there is no Agent or Skill tool); the `claude_code` preset (or none) offers all.
 */
function chosenTools(options: Options, all: readonly AnyTool[]): readonly AnyTool[] {
  const chosen = options.tools;
  if (chosen === undefined || !Array.isArray(chosen)) return all;
  const known = new Set([...all.map((tool) => tool.name), ...SESSION_TOOLS]);
  chosen.forEach((name, index) => {
    if (!known.has(name))
      throw new ConfigError(
        `query() options.tools[${index}]: no built-in tool named ${JSON.stringify(name)}; known: ${[...known].join(', ')}`,
        { field: `tools[${index}]` },
      );
  });
  return all.filter((tool) => chosen.includes(tool.name));
}

/**
 * `systemPrompt`: a string (or strings, joined by newlines) is the whole system prompt; the
 * `claude_code` preset is hookloop's own prompt, with `append` after a blank line; absent, the
 * prompt is empty.
 */
function systemPrompt(
  options: Options,
  tools: readonly AnyTool[],
  setup: { readonly permissions?: RunOptions['permissions']; readonly agents?: RunOptions['agents'] },
  modelName: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const prompt = options.systemPrompt;
  if (prompt === undefined) return '';
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) return prompt.join('\n');
  const preset = prompt as { type?: unknown; preset?: unknown; append?: unknown };
  if (preset.type !== 'preset' || preset.preset !== 'claude_code')
    throw new ConfigError(
      'query() options.systemPrompt: expected a string or { type: "preset", preset: "claude_code", append? }',
      { field: 'systemPrompt' },
    );
  const base = renderSystemPrompt({
    toolNames: [...tools.map((tool) => tool.name), ...((setup.agents?.length ?? 0) > 0 ? ['Agent'] : [])],
    permissionMode: setup.permissions?.mode ?? 'default',
    environment: environmentLines({
      cwd,
      additionalDirectories: setup.permissions?.additionalDirectories ?? [],
      model: modelName,
      env: env as Record<string, string | undefined>,
    }),
  });
  return typeof preset.append === 'string' && preset.append !== '' ? `${base}\n\n${preset.append}` : base;
}

/**
 * `resume` (a session id) or `continue` (the latest session of `cwd`), locally or from
 * `sessionStore` (findResumed), forked under a new id with `forkSession`.
 */
async function resumedSession(
  options: Options,
  configDir: string,
  cwd: string,
): Promise<ResumedSession | undefined> {
  const resumed = await findResumed(options, configDir, cwd);
  if (resumed === undefined || options.forkSession !== true) return resumed;
  return options.sessionId !== undefined
    ? forkSession(resumed, configDir, cwd, options.sessionId)
    : forkSession(resumed, configDir, cwd);
}
