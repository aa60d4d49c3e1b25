import path from 'node:path';
import type { BashClassification } from '../shell/index.js';
import { realpathLoose } from '../tools/workspace.js';
import type { TaintChange, TaintedCode } from './session-taint.js';
import type { PermissionMode, PermissionVerdict } from './types.js';

/**
 * What a call writes, as a taint change: the real paths an edit tool names (`paths`), or what the
 * Bash reader says a command writes (`bash`): the paths of redirections and of the writes it reads
 * (a tree for `cp -r`/`mv`), and `unknown` for a destination computed when the command runs or,
 * with `fromData`, one a program takes from its input (`tar -x`, `git apply`). Undefined when the
 * call writes nothing.
 */
export function taintChangeOf(
  paths: readonly string[],
  bash: BashClassification | undefined,
  fromData = false,
): TaintChange | undefined {
  const files = new Set(paths.map(realpathLoose));
  const trees = new Set<string>();
  let unknown = fromData;
  for (const write of bash?.writes ?? []) {
    if (write.kind === 'program') {
      // The words of a program hookloop does not read mostly name what it reads (`node script.js`):
      // counting them as written would make every second run of an allowed command ask.
      if (write.computed === true) unknown = true;
      continue;
    }
    if (write.path === undefined || write.place === 'unknown') unknown = true;
    else (write.tree === true ? trees : files).add(realpathLoose(write.path));
  }
  if (files.size === 0 && trees.size === 0 && !unknown) return undefined;
  return {
    kind: 'wrote',
    files: [...files],
    ...(trees.size > 0 ? { trees: [...trees] } : {}),
    ...(unknown ? { unknown } : {}),
  };
}

/**
 * The verdict for an allow rule's approval of a command that runs what this session wrote: an ask
 * only a person may answer (no hook: a hook is not someone who has read the file), naming the
 * file; in dontAsk, which never asks, a refusal with the same words.
 */
export function taintVerdict(
  tainted: TaintedCode,
  mode: PermissionMode,
  projectDir: string,
): PermissionVerdict {
  const shown = tainted.files.slice(0, 3).map((file) => {
    const relative = path.relative(projectDir, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  });
  const message = tainted.unknown
    ? `${tainted.program} may run a file this session wrote (an earlier command wrote files hookloop could not name before it ran); approve once to trust it.`
    : `${tainted.program} runs ${shown.join(', ')}${tainted.files.length > 3 ? ' and more' : ''}, which this session wrote; approve once to trust it.`;
  const taint = { files: tainted.files, unknown: tainted.unknown };
  if (mode === 'dontAsk')
    return {
      behavior: 'deny',
      message,
      source: 'session taint (mode dontAsk)',
      cause: { kind: 'boundary', boundary: 'session_taint' },
    };
  return {
    behavior: 'ask',
    message,
    source: 'session taint',
    hookMayDecide: false,
    cause: { kind: 'boundary', boundary: 'session_taint' },
    taint,
  };
}
