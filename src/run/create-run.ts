import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  agentTool,
  continueAgentSubagent,
  runAgentSubagent,
  runHookSubagent,
  type AgentDefinition,
  type AgentInput,
} from '../agents/index.js';
import { activateSkillHooks } from '../skills/skill-hooks.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import { startBackgroundSubagent } from '../agents/background-subagent.js';
import { skillTool } from '../skills/skill-tool.js';
import { BackgroundHooks } from '../hooks/async-hooks.js';
import { HookEngine } from '../hooks/hook-engine.js';
import { headlessApprover } from '../permissions/plain-approvers.js';
import { permissionPromptApprover } from '../mcp/permission-prompt-tool.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { startRunSandbox, type RunSandbox, type SandboxStart } from '../sandbox/run-sandbox.js';
import { deniedEnvVars } from '../sandbox/runtime-config.js';
import { resolveConfigDir, transcriptPathFor } from '../session/paths.js';
import { requireSessionId } from '../session/session-id.js';
import { FileSessionStore } from '../session/file-session-store.js';
import { checkSessionKey, projectKeyFor } from '../session/store-keys.js';
import { storeMirror, type TranscriptMirror } from '../session/store-mirror.js';
import { ConfigError } from '../errors.js';
import { eventsPathFor, eventsWriter } from '../transcript/events-writer.js';
import { TranscriptWriter } from '../transcript/transcript-writer.js';
import { createRunTracer } from '../telemetry/run-tracer.js';
import { tracingRegistered } from '../telemetry/traceparent.js';
import type { ToolContext } from '../tools/define-tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { Workspace } from '../tools/workspace.js';
import type { RunOptions } from './run-options.js';
import { hookModelClient } from '../loop/model-call-hooks.js';
import { answerElicitation, createSessionMcp, mcpToolCaller } from './mcp-session.js';
import { makeEmitter, type RunContext } from '../loop/run-context.js';
import type { RunObserver } from '../loop/run-events.js';
import { SessionState } from '../loop/session-state.js';

/**
 * Builds the context a session's phases share. A resumed session keeps its id, transcript and
 * conversation; the transcript writer (unless `transcript: false`) is the first observer, so each
 * message is on disk before the next hook runs; with `timelineEvents` the events file is written too.
 * `sandbox` is the run's started OS sandbox (see startRunSandboxFor), if any.
 * With `sessionStore`, the writers also feed the store's copy (`transcriptMirror`).
 * @throws ConfigError for invalid permission rules in `options.permissions`, a `sessionId` that is
 *   not a UUID, or a `sessionStore` the run cannot copy to (see mirrorFor).
 */
export function createRun(options: RunOptions, sandbox?: RunSandbox): RunContext {
  const projectDir = path.resolve(options.projectDir);
  const resume = options.resume;
  if (options.sessionId !== undefined) requireSessionId(options.sessionId, 'sessionId');
  const sessionId = resume?.sessionId ?? options.sessionId ?? options.durability?.uuid() ?? randomUUID();
  const transcriptPath =
    options.transcriptPath ??
    resume?.transcriptPath ??
    defaultTranscriptPath(projectDir, sessionId, options.configDir);
  const workspace = new Workspace(projectDir, options.permissions?.additionalDirectories ?? []);
  const mode = options.permissions?.mode ?? 'default';
  const rules = { allow: [], ask: [], deny: [], ...options.permissions?.rules };
  const policy = new PermissionPolicy({
    rules,
    mode,
    workspace,
    projectDir,
    ...(options.permissions?.ruleSources ? { ruleSources: options.permissions.ruleSources } : {}),
    configurationFiles: configurationFiles(options),
    ...(resume?.taint ? { taint: resume.taint } : {}),
    ...(sandbox
      ? {
          sandboxAutoAllows: (input) => isBashInput(input) && sandbox.autoAllows(input),
          runsSandboxed: (input) => isBashInput(input) && sandbox.runsSandboxed(input),
        }
      : {}),
  });
  // The policy owns the mode (a PermissionRequest hook may change it); the state reports it.
  const state = new SessionState({ sessionId, transcriptPath, projectDir, cwd: projectDir, mode: policy });
  state.model = resume?.model;
  state.contextTokens = resume?.contextTokens ?? 0;
  const observers: RunObserver[] = [...(options.observers ?? [])];
  const emit = makeEmitter(observers);
  const transcriptMirror = mirrorFor(options, projectDir, sessionId, transcriptPath, (text) =>
    emit({ type: 'warning', text }),
  );
  let writer: TranscriptWriter | undefined;
  if (options.transcript !== false) {
    writer = new TranscriptWriter(
      {
        path: transcriptPath,
        sessionId,
        facts: state,
        ...(resume ? { resume } : {}),
        ...(transcriptMirror ? { mirror: (entries) => transcriptMirror.send(undefined, entries) } : {}),
      },
      (error) => emit({ type: 'warning', text: error.message }),
    );
    observers.unshift(writer.observer);
  }
  // The timeline's events (hook timings, decisions), next to the transcript; see `hookloop timeline`.
  if (options.timelineEvents === true)
    observers.push(
      eventsWriter(eventsPathFor(transcriptPath), (error) => emit({ type: 'warning', text: error.message })),
    );
  // Spans only when someone collects them: without a tracer or a registered SDK, no observer at all.
  const tracer =
    options.tracer !== undefined || tracingRegistered()
      ? createRunTracer(sessionId, options.tracer)
      : undefined;
  if (tracer) observers.push(tracer.observer);
  const signal = options.signal ?? new AbortController().signal;
  // The Agent and Skill tools belong to this run: a registry the caller passes (and may reuse) gets them in a copy.
  const ownsTools = (options.agents?.length ?? 0) > 0 || (options.skills?.length ?? 0) > 0;
  const tools =
    options.tools instanceof ToolRegistry && !ownsTools
      ? options.tools
      : new ToolRegistry(
          options.tools instanceof ToolRegistry ? options.tools.list() : (options.tools ?? []),
        );
  const mcp = options.mcpServers
    ? createSessionMcp(options.mcpServers, {
        projectDir,
        transcriptPath,
        configDir: resolveConfigDir(options.configDir),
        hides: (toolName) => policy.hidesTool(toolName),
        env: options.env ?? {},
        tools,
        emit,
        onElicitation: (request) => answerElicitation(run, request, options.elicit),
      })
    : undefined;
  const run: RunContext = {
    state,
    messages: [...(resume?.messages ?? [])],
    hooks: options.hooks ?? new HookEngine(),
    tools,
    policy,
    // `--permission-prompt-tool`: an MCP tool of the session is the approver (it is asked what a person would be).
    approver:
      options.permissionPromptTool !== undefined
        ? permissionPromptApprover(() => mcp, options.permissionPromptTool)
        : (options.approver ?? headlessApprover),
    autoMode: options.permissions?.autoMode === true,
    workspace,
    signal,
    env: { ...options.env },
    withheldEnv: deniedEnvVars(options.sandbox),
    ...(sandbox ? { sandbox } : {}),
    configDir: resolveConfigDir(options.configDir),
    emit,
    observed: observers.length > 0,
    ...(writer ? { flushTranscript: () => writer.flush() } : {}),
    ...(transcriptMirror ? { transcriptMirror } : {}),
    permissionDenials: [],
    model: options.model,
    background: new BackgroundHooks(signal),
    // Prompt hooks ask the session's model (through the model-call hooks, caller "hook"); agent hooks run a bounded sub-run of this loop.
    services: {
      model: hookModelClient(() => run, options.model),
      runSubagent: (request) => runHookSubagent(run, request),
      ...(mcp ? { callMcpTool: mcpToolCaller(mcp) } : {}),
    },
    ...(mcp ? { mcp } : {}),
    ...(tracer ? { traceparent: tracer.traceparent } : {}),
    ...(options.durability ? { durability: options.durability } : {}),
  };
  if (options.agents !== undefined && options.agents.length > 0 && tools.get('Agent') === undefined) {
    // Agent calls start subagents of this run; `Task` is Claude Code's legacy name for the tool.
    const setup = {
      transcript: options.transcript !== false,
      ...(options.agentModel ? { agentModel: options.agentModel } : {}),
    };
    // A call whose subagent's calls wait for a decision is continued on resume (agents/waiting-subagent.ts).
    const start = async (input: AgentInput, definition: AgentDefinition, context: ToolContext) =>
      input.run_in_background === true
        ? startBackgroundSubagent(run, setup, input, definition, context)
        : runAgentSubagent(run, setup, input, definition, context);
    tools.register(
      agentTool(options.agents, start, 'Agent', (input, definition, calls, decisions, context) =>
        continueAgentSubagent(run, setup, input, definition, calls, decisions, context),
      ),
    );
    tools.alias('Task', 'Agent');
  }
  if (options.skills !== undefined && options.skills.length > 0 && tools.get('Skill') === undefined)
    tools.register(skillTool(options.skills, (skill) => loadSkillHooks(run, skill)));
  return run;
}

/**
 * Turns on a loaded skill's front-matter hooks for the rest of the session, once per skill (loading
 * it again adds nothing); their warnings are the run's.
 */
export function loadSkillHooks(run: RunContext, skill: SkillDefinition): void {
  for (const text of activateSkillHooks(run.hooks, skill, run.state.projectDir, run.configDir))
    run.emit({ type: 'warning', text });
}

/**
 * The session store's copy of the run's transcripts, when `options.sessionStore` asks for one.
 * @throws ConfigError when the run writes no transcript to copy, or the store is a FileSessionStore
 *   whose file for this session is the run's own transcript (every line would be there twice).
 */
function mirrorFor(
  options: RunOptions,
  projectDir: string,
  sessionId: string,
  transcriptPath: string,
  warn: (text: string) => void,
): TranscriptMirror | undefined {
  const store = options.sessionStore;
  if (store === undefined) return undefined;
  if (options.transcript === false)
    throw new ConfigError(
      'sessionStore: the store copies the local transcript, so it needs one (transcript: false turns it off)',
      { field: 'sessionStore' },
    );
  const key = { projectKey: options.sessionStoreProjectKey ?? projectKeyFor(projectDir), sessionId };
  checkSessionKey(key);
  if (store instanceof FileSessionStore && path.resolve(store.pathFor(key)) === path.resolve(transcriptPath))
    throw new ConfigError(
      `sessionStore: this FileSessionStore would write the run's own transcript (${transcriptPath}); give it another configDir, or leave sessionStore out (the local transcript is written anyway)`,
      { field: 'sessionStore' },
    );
  return storeMirror(store, key, warn);
}

/** What the policy protects besides its fixed locations: the run's own list and every config folder it may use. */
function configurationFiles(options: RunOptions): string[] {
  const folders = [options.configDir, process.env['HOOKLOOP_HOME'], process.env['CLAUDE_CONFIG_DIR']].filter(
    (folder): folder is string => folder !== undefined && folder !== '',
  );
  return [
    ...(options.configurationFiles ?? []),
    resolveConfigDir(options.configDir),
    ...folders.map((folder) => path.resolve(folder)),
  ];
}

/**
 * Starts the OS sandbox `options.sandbox` asks for, over the run's workspace roots (the project
 * directory and the additional directories). See startRunSandbox for warnings and errors.
 */
export function startRunSandboxFor(options: RunOptions): Promise<SandboxStart> {
  const projectDir = path.resolve(options.projectDir);
  const roots = [
    projectDir,
    ...(options.permissions?.additionalDirectories ?? []).map((directory) =>
      path.resolve(projectDir, directory),
    ),
  ];
  const rules = { deny: options.permissions?.rules?.deny ?? [], ask: options.permissions?.rules?.ask ?? [] };
  return startRunSandbox(options.sandbox, { projectDir, roots, rules });
}

function isBashInput(input: unknown): input is { command: string; dangerouslyDisableSandbox?: boolean } {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as { command?: unknown }).command === 'string'
  );
}

/**
 * Where a session's transcript goes, as Claude Code lays it out:
 * `<configDir>/projects/<slug of projectDir>/<session>.jsonl`, `configDir` defaulting to
 * `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude` (see session/paths.ts).
 */
export function defaultTranscriptPath(projectDir: string, sessionId: string, configDir?: string): string {
  return transcriptPathFor(resolveConfigDir(configDir), path.resolve(projectDir), sessionId);
}
