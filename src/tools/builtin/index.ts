import type { AnyTool } from '../define-tool.js';
import { Bash } from './bash.js';
import { Edit } from './edit.js';
import { Glob } from './glob.js';
import { Grep } from './grep.js';
import { Read } from './read.js';
import { TaskStop } from './task-stop.js';
import { TodoWrite } from './todo-write.js';
import { WebFetch } from './web-fetch.js';
import { Write } from './write.js';

export { Bash, BashInterruptedFailure, type BashOutput } from './bash.js';
export { Edit, type EditOutput } from './edit.js';
export { Glob, type GlobOutput } from './glob.js';
export { Grep, type GrepOutput } from './grep.js';
export { Read, type ReadOutput } from './read.js';
export { TaskStop, type TaskStopOutput } from './task-stop.js';
export { WebFetch, type WebFetchOutput } from './web-fetch.js';
export { stopBackgroundShells } from './background-shells.js';
export { TodoWrite, type Todo, type TodoWriteOutput } from './todo-write.js';
export { Write, writeFileAtomic, type WriteOutput } from './write.js';
export { computeStructuredPatch, type PatchHunk } from './structured-patch.js';

/**
 * The built-in tools, with Claude Code's names, inputs and output shapes: Bash, Read, Write, Edit,
 * Glob, Grep, then TodoWrite, TaskStop (which ends a `run_in_background` command) and WebFetch. Each call returns the same tool objects; session state such as the
 * cwd lives in the ToolContext (TodoWrite keeps each session's list by its id).
 */
export function builtinTools(): AnyTool[] {
  return [Bash, Read, Write, Edit, Glob, Grep, TodoWrite, TaskStop, WebFetch];
}
