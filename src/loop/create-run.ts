import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BackgroundHooks } from '../hooks/async-hooks.js';
import { HookEngine } from '../hooks/hook-engine.js';
import { headlessApprover } from '../permissions/approvers.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { resolveConfigDir, transcriptPathFor } from '../session/paths.js';
import { TranscriptWriter } from '../session/transcript-writer.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { Workspace } from '../tools/workspace.js';
import type { RunOptions } from './run-agent.js';
import { answerElicitation, createSessionMcp, mcpToolCaller } from './mcp-session.js';
import { makeEmitter, type RunContext } from './run-context.js';
import type { RunObserver } from './run-events.js';
import { SessionState } from './session-state.js';
import { runSubagent } from './subagent.js';

/**
 * Builds the context a session's phases share. A resumed session keeps its id, transcript and
 * conversation; the transcript writer (unless `transcript: false`) is the first observer, so each
 * message is on disk before the next hook runs.
 * @throws ConfigError for invalid permission rules in `options.permissions`.
 */
export function createRun(options: RunOptions): RunContext {
  const projectDir = path.resolve(options.projectDir);
  const resume = options.resume;
  const sessionId = resume?.sessionId ?? options.sessionId ?? randomUUID();
  const transcriptPath = options.transcriptPath ?? resume?.transcriptPath ?? defaultTranscriptPath(projectDir, sessionId, options.configDir);
  const workspace = new Workspace(projectDir, options.permissions?.additionalDirectories ?? []);
  const mode = options.permissions?.mode ?? 'default';
  const rules = { allow: [], ask: [], deny: [], ...options.permissions?.rules };
  const state = new SessionState({ sessionId, transcriptPath, projectDir, cwd: projectDir, mode });
  state.model = resume?.model;
  state.contextTokens = resume?.contextTokens ?? 0;
  const observers: RunObserver[] = [...(options.observers ?? [])];
  const emit = makeEmitter(observers);
  if (options.transcript !== false) {
    const writer = new TranscriptWriter({ path: transcriptPath, sessionId, facts: state, ...(resume ? { resume } : {}) }, (error) => emit({ type: 'warning', text: error.message }));
    observers.unshift(writer.observer);
  }
  const signal = options.signal ?? new AbortController().signal;
  const tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
  const mcp = options.mcpServers ? createSessionMcp(options.mcpServers, { projectDir, env: options.env ?? {}, tools, emit, onElicitation: (request) => answerElicitation(run, request, options.elicit) }) : undefined;
  const run: RunContext = {
    state,
    messages: [...(resume?.messages ?? [])],
    hooks: options.hooks ?? new HookEngine(),
    tools,
    policy: new PermissionPolicy({ rules, mode, workspace, projectDir }),
    approver: options.approver ?? headlessApprover,
    workspace,
    signal,
    env: { ...options.env },
    emit,
    permissionDenials: [],
    model: options.model,
    background: new BackgroundHooks(signal),
    // Prompt hooks ask the session's model; agent hooks run a bounded sub-run of this loop.
    services: { model: options.model, runSubagent: (request) => runSubagent(run, request), ...(mcp ? { callMcpTool: mcpToolCaller(mcp) } : {}) },
    ...(mcp ? { mcp } : {}),
  };
  return run;
}

/**
 * Where a session's transcript goes, as Claude Code lays it out:
 * `<configDir>/projects/<slug of projectDir>/<session>.jsonl`, `configDir` defaulting to
 * `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude` (see session/paths.ts).
 */
export function defaultTranscriptPath(projectDir: string, sessionId: string, configDir?: string): string {
  return transcriptPathFor(resolveConfigDir(configDir), path.resolve(projectDir), sessionId);
}
