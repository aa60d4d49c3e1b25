import { describeError } from '../errors.js';
import type { ToolCall, ToolResultBlock } from '../messages/messages.js';
import { toolResultMessage, type ToolResultMessage } from '../messages/messages.js';
import { CallsWaiting } from '../session/pending-calls.js';
import { ToolFailure, type AnyTool, type ToolContext } from '../tools/define-tool.js';
import { journaled } from './durability.js';
import { withAbsolutePaths } from './replaced-output.js';
import type { BatchEntry } from './loop-types.js';
import { phaseBoundary, toolContextFor, type RunContext } from './run-context.js';

/*
 * The small pieces of the execute and pair phases of a tool call (agent-loop.ts reads as the
 * pipeline; the details of running a handler and reporting a call live here).
 */

type Input = Readonly<Record<string, unknown>>;

/** A handler's run: its output, or the model-visible error text it failed with; `durationMs` as PostToolUse reports it. */
export type HandlerRun =
  | { readonly ok: true; readonly output: unknown; readonly durationMs: number }
  | {
      readonly ok: false;
      readonly message: string;
      readonly durationMs: number;
      readonly endsRun?: 'hook_stopped' | 'aborted_tools';
    };

/**
 * The handler's context for this call: the run's, plus the real paths the permission was decided
 * for (file tools write there or nowhere), the policy's search filter (Grep and Glob show only
 * files this call may read), the call's id, and the W3C traceparent of the call's span when the run is traced.
 */
export function callContext(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  input: Input,
  realPaths: readonly string[],
): ToolContext {
  // The call's `run` span when the run is traced: Bash hands it on as TRACEPARENT.
  const traceparent = run.traceparent?.(call.id);
  const cwd = run.state.cwd;
  // Built at the first file a search asks about: Read and most other read tools never ask, and
  // building it resolves the call's paths on disk.
  let filter: ((file: string) => Promise<boolean>) | undefined;
  const mayRead =
    tool.kind === 'read'
      ? (file: string) => (filter ??= run.policy.searchFilter({ tool, input, cwd }))(file)
      : undefined;
  return toolContextFor(run, {
    toolUseId: call.id,
    approvedPaths: realPaths,
    allowRules: run.policy.rules.allow,
    traceparent,
    mayRead,
  });
}

/** The tool's content checks (see `Tool.validateContent`); a throw is reported like a returned problem. */
export async function validateContent(
  tool: AnyTool,
  input: Input,
  context: ToolContext,
): Promise<string | undefined> {
  if (!tool.validateContent) return undefined;
  try {
    return await tool.validateContent(input, context);
  } catch (error) {
    return `Error: ${describeError(error)}`;
  }
}

/**
 * Runs the handler exactly once, between the hot-reload boundaries `before-tool` and `after-tool`
 * (`invoke`: the handler, or the rest of a waiting call's run, deferred-approval.ts). A rewritten
 * input (one the model never wrote) shows its paths absolute in the output. A handler that throws
 * CallsWaiting (its subagent's calls wait) is returned as is: the call has not finished.
 */
export async function runHandler(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  input: Input,
  context: ToolContext,
  rewritten: boolean,
  invoke: () => Promise<unknown> = () => tool.handler(input, context),
): Promise<HandlerRun | CallsWaiting> {
  const started = performance.now();
  const cwd = run.state.cwd;
  const elapsed = () => Math.round(performance.now() - started);
  await phaseBoundary(run, 'before-tool', { toolName: tool.name, toolUseId: call.id });
  // The handler is one journaled step keyed by the call's id: a replayed run gets its recorded
  // outcome (as data: an output, an error text, or the calls its subagent left waiting) and the
  // side effect does not happen again.
  const ran = await journaled(
    run,
    `tool:${run.state.agent?.id ?? 'main'}:${call.id}`,
    async (): Promise<HandlerRun | WaitingRecord> => {
      try {
        let output: unknown = await invoke();
        if (rewritten) output = withAbsolutePaths(output, cwd);
        return { ok: true, output, durationMs: elapsed() };
      } catch (error) {
        if (error instanceof CallsWaiting)
          return { waiting: error.calls, ...(error.deferred ? { deferred: error.deferred } : {}) };
        if (!(error instanceof ToolFailure))
          return { ok: false, message: `Error: ${describeError(error)}`, durationMs: elapsed() };
        return {
          ok: false,
          message: error.message,
          durationMs: elapsed(),
          ...(error.endsRun ? { endsRun: error.endsRun } : {}),
        };
      }
    },
  );
  await phaseBoundary(run, 'after-tool', { toolName: tool.name, toolUseId: call.id });
  return 'waiting' in ran ? new CallsWaiting(ran.waiting, ran.deferred) : ran;
}

/** A handler that did not finish because its subagent's calls wait (CallsWaiting), as a journal can hold it. */
interface WaitingRecord {
  readonly waiting: CallsWaiting['calls'];
  readonly deferred?: CallsWaiting['deferred'];
}

/** The model's view of a successful call's output (`render`, and `renderBlocks` when the tool has them); a render that throws is an error text. */
export function renderResult(
  call: ToolCall,
  tool: AnyTool,
  output: unknown,
  input: Input,
): ToolResultMessage {
  let content: string;
  let blocks: readonly ToolResultBlock[] | undefined;
  try {
    content = tool.render(output, input);
    blocks = tool.renderBlocks?.(output, input);
  } catch (error) {
    content = `Error: the tool output could not be rendered: ${describeError(error)}`;
    blocks = undefined;
  }
  return toolResultMessage(call.id, tool.name, content, false, blocks);
}

/** The user text a tool sends after its result (`Tool.followUp`, the Skill tool's instructions); a throw sends none. */
export function followUpText(tool: AnyTool, output: unknown, input: Input): string | undefined {
  try {
    return tool.followUp?.(output, input);
  } catch {
    return undefined;
  }
}

/** `mcp_server` for the tool events of an MCP tool (Claude Code sends it last, after the event's own fields). */
export function mcpServerOf(tool: AnyTool): { mcp_server?: { name: string; source: string } } {
  return tool.mcpServer ? { mcp_server: { name: tool.mcpServer.name, source: tool.mcpServer.source } } : {};
}

/**
 * What PostToolBatch reports as a call's response: an MCP tool's content array (after
 * updatedMCPToolOutput) and another tool's content blocks (Agent's), as the reference reports them;
 * else the model-visible text.
 */
export function batchResponse(
  run: RunContext,
  call: ToolCall,
  result: ToolResultMessage,
  ran: boolean,
  output: unknown,
): unknown {
  const tool = run.tools.get(call.name);
  // An empty MCP output is the no-output line the model got.
  if (
    ran &&
    !result.isError &&
    tool?.mcpServer &&
    output !== undefined &&
    !(Array.isArray(output) && output.length === 0)
  )
    return output;
  if (ran && !result.isError && !tool?.mcpServer && result.blocks !== undefined) return result.blocks;
  return result.content;
}

/**
 * The call's PostToolBatch entry, made when asked (see `CallOutcome.batchEntry`) from the session's
 * cwd as it is now. Its input is the model's own arguments (paths as written, not a hook's rewrite)
 * plus the fields the tool fills in by default (Edit's `replace_all: false`), as the reference does
 * (tools-read-write-edit, post-tool-use-failure); raw arguments when they do not validate.
 */
export function batchEntry(run: RunContext, call: ToolCall, response: unknown): () => BatchEntry {
  const where = { cwd: run.state.cwd, projectDir: run.state.projectDir };
  return () => ({
    tool_name: call.name,
    tool_input: batchInput(run, call, where),
    tool_use_id: call.id,
    tool_response: response,
  });
}

function batchInput(
  run: RunContext,
  call: ToolCall,
  where: Pick<ToolContext, 'cwd' | 'projectDir'>,
): unknown {
  const tool = run.tools.get(call.name);
  if (!tool || call.input === null || typeof call.input !== 'object' || Array.isArray(call.input))
    return call.input;
  const checked = run.tools.check(tool, call.input, where);
  return checked.ok ? { ...checked.input, ...(call.input as Input) } : call.input;
}

/**
 * The `file_path` of the model's raw input (an object, or JSON text from some providers) as the model
 * spelled it, when it is a string (see `ToolContext.spelledPath`); undefined otherwise. Never throws.
 */
export function spelledFilePath(raw: unknown): string | undefined {
  let input = raw;
  if (typeof raw === 'string') {
    try {
      input = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  const value =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>)['file_path'] : undefined;
  return typeof value === 'string' ? value : undefined;
}
