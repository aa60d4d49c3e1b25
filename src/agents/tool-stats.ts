/** Claude Code's `toolStats` of an Agent result: the subagent's calls by kind, and the lines its edits added and removed. */
export interface ToolStats {
  readCount: number;
  searchCount: number;
  bashCount: number;
  editFileCount: number;
  linesAdded: number;
  linesRemoved: number;
  otherToolCount: number;
}

/** All counts zero. */
export function emptyToolStats(): ToolStats {
  return {
    readCount: 0,
    searchCount: 0,
    bashCount: 0,
    editFileCount: 0,
    linesAdded: 0,
    linesRemoved: 0,
    otherToolCount: 0,
  };
}

/** Counts one paired call of `toolName`; an Edit or Write `output` with a `structuredPatch` adds its `+`/`-` lines. */
export function countToolUse(stats: ToolStats, toolName: string, output: unknown): void {
  if (toolName === 'Read') stats.readCount++;
  else if (toolName === 'Grep' || toolName === 'Glob') stats.searchCount++;
  else if (toolName === 'Bash') stats.bashCount++;
  else if (toolName === 'Edit' || toolName === 'Write') stats.editFileCount++;
  else stats.otherToolCount++;
  const patch = (output as { structuredPatch?: unknown } | undefined)?.structuredPatch;
  if (!Array.isArray(patch)) return;
  for (const hunk of patch) {
    for (const line of (hunk as { lines?: unknown }).lines instanceof Array
      ? (hunk as { lines: unknown[] }).lines
      : []) {
      if (typeof line !== 'string') continue;
      if (line.startsWith('+')) stats.linesAdded++;
      else if (line.startsWith('-')) stats.linesRemoved++;
    }
  }
}
