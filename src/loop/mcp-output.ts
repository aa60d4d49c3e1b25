import path from 'node:path';
import { persistedMcpOutput, type McpToolOutput } from '../mcp/mcp-result.js';
import type { RunContext } from './run-context.js';

/** `<transcript dir>/<session>/tool-results`: where Claude Code saves a session's tool output files. */
export function toolResultsDir(transcriptPath: string): string {
  return path.join(path.dirname(transcriptPath), path.basename(transcriptPath, '.jsonl'), 'tool-results');
}

/**
 * An MCP output over Claude Code's size limit as the model gets it (see `persistedMcpOutput`), or
 * undefined when it goes as it is.
 */
export function oversizedMcpOutput(run: RunContext, toolUseId: string, output: unknown): string | undefined {
  return persistedMcpOutput(output as McpToolOutput, toolUseId, toolResultsDir(run.state.transcriptPath));
}
