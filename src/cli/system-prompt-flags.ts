import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, describeError } from '../errors.js';
import { renderSystemPrompt, type SystemPromptFacts } from '../prompt/system-prompt.js';
import type { SystemPromptFlags } from './parse-args.js';

/**
 * The main session's system prompt: hookloop's (src/prompt/system-prompt.ts, filled with `facts`),
 * or the `--system-prompt` / `--system-prompt-file` text instead; then, after a blank line, the
 * `--append-system-prompt` / `--append-system-prompt-file` text. File texts are used as they are
 * (not trimmed), as Claude Code reads them; relative paths are relative to `cwd`.
 * @throws ConfigError `--system-prompt-file FILE: cannot read it: …` for a file that cannot be read.
 */
export function assembleSystemPrompt(
  flags: SystemPromptFlags,
  facts: () => SystemPromptFacts,
  cwd: string,
): string {
  const replacement =
    flags.replace ??
    (flags.replaceFile !== undefined
      ? readFlagFile('--system-prompt-file', flags.replaceFile, cwd)
      : undefined);
  const appended =
    flags.append ??
    (flags.appendFile !== undefined
      ? readFlagFile('--append-system-prompt-file', flags.appendFile, cwd)
      : undefined);
  const base = replacement ?? renderSystemPrompt(facts());
  return appended === undefined ? base : `${base}\n\n${appended}`;
}

function readFlagFile(flag: string, file: string, cwd: string): string {
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new ConfigError(`${flag} ${file}: cannot read it: ${describeError(error)}`, { field: flag, file });
  }
}
