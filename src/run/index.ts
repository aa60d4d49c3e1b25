/** The session around the loop: run one prompt, hold a session, continue pending calls, read Claude Code's files as options. */
export {
  runAgent,
  startSession,
  defaultTranscriptPath,
  type AgentSession,
  type RunOptions,
  type RunResult,
  type SessionEndReason,
  type TerminalReason,
} from './run-agent.js';
export { resumeAgent } from './resume-agent.js';
export {
  loadClaudeCodeSetup,
  type ClaudeCodeRunOptions,
  type ClaudeCodeSetupOptions,
} from './claude-code-setup.js';
/** The durability seam: journaled steps, replay-stable ids and time, waiting for decisions (in-process by default; `hookloop/restate` for Restate). */
export { inProcessDurability, type Durability } from '../loop/durability.js';
export { sendAndAwaitDecisions } from './durable-send.js';
