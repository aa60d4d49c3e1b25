/** The session around the loop: run one prompt, hold a session, continue pending calls, read Claude Code's files as options. */
export { runAgent, startSession, defaultTranscriptPath, type AgentSession, type RunOptions, type RunResult, type SessionEndReason, type TerminalReason } from './run-agent.js';
export { resumeAgent } from './resume-agent.js';
export { loadClaudeCodeSetup, type ClaudeCodeRunOptions, type ClaudeCodeSetupOptions } from './claude-code-setup.js';
