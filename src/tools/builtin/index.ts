import type { AnyTool } from '../define-tool.js';
import { Bash } from './bash.js';
import { Edit } from './edit.js';
import { Glob } from './glob.js';
import { Grep } from './grep.js';
import { Read } from './read.js';
import { Write } from './write.js';

export { Bash, BashInterruptedFailure, type BashOutput } from './bash.js';
export { Edit, type EditOutput } from './edit.js';
export { Glob, type GlobOutput } from './glob.js';
export { Grep, type GrepOutput } from './grep.js';
export { Read, type ReadOutput } from './read.js';
export { Write, writeFileAtomic, type WriteOutput } from './write.js';
export { computeStructuredPatch, type PatchHunk } from './structured-patch.js';

/**
 * The built-in tools, with Claude Code's names, inputs and output shapes, in the order Claude
 * Code lists them to the model: Bash, Read, Write, Edit, Glob, Grep. Each call returns the same
 * (stateless) tool objects; session state such as the cwd lives in the ToolContext.
 */
export function builtinTools(): AnyTool[] {
  return [Bash, Read, Write, Edit, Glob, Grep];
}
