import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { toAnthropicMessages } from '../model/anthropic-wire.js';
import type { ModelRequest } from '../model/model-client.js';

/** `--record-requests FILE`: where each model request goes, one JSON line, as it is sent. */
export interface RequestLog {
  /** Appends `{system, tools, messages}` (tool names; messages in Anthropic wire shape) as one line. */
  append(request: ModelRequest): void;
  close(): void;
}

/**
 * Opens `file` for appending (created if missing), before the run starts, so that a path that
 * cannot be written is one line and exit 2 rather than a run whose log is lost at the end. Lines
 * are appended as the requests are sent, so an interrupted run keeps the requests it made.
 * @throws ConfigError `--record-requests: cannot write FILE: <why>` (missing directory, no permission, a directory).
 */
export function openRequestLog(file: string): RequestLog {
  let descriptor: number;
  try {
    descriptor = fs.openSync(file, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? `no such directory: ${path.dirname(path.resolve(file))}` : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new ConfigError(`--record-requests: cannot write ${file}: ${why}`, { file, field: '--record-requests' });
  }
  return {
    append: (request) => {
      const line = JSON.stringify({ system: request.system, tools: request.tools.map((tool) => tool.name), messages: toAnthropicMessages(request.messages) });
      fs.writeSync(descriptor, `${line}\n`);
    },
    close: () => fs.closeSync(descriptor),
  };
}
