import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { toAnthropicMessages } from '../model/anthropic-wire.js';
import type { ModelRequest } from '../model/model-client.js';

/** `--record-requests FILE`: the model requests of a run (or interactive session), appended to FILE as JSON lines when it ends. */
export interface RequestLog {
  /** Keeps `request` as it is now (the conversation is the loop's live list, so it is copied). */
  append(request: ModelRequest): void;
  /** Appends one line `{system, tools, tool_definitions, messages}` per kept request (tool names, then name/description/input_schema; messages in Anthropic wire shape) to FILE. */
  close(): void;
}

/**
 * Checks, before the run starts, that `file` can be appended to (its directory exists and is
 * writable; the file, if it exists, is a writable file), so that a bad path is one line and exit 2
 * rather than a run whose log is lost at the end. Nothing is created or written during the run:
 * FILE often sits next to the `--settings` file, and a write there would wake the settings watcher;
 * the lines are appended when the run ends.
 * @throws ConfigError `--record-requests: cannot write FILE: <why>` (missing directory, no permission, a directory).
 */
export function openRequestLog(file: string): RequestLog {
  const fail = (why: string): never => {
    throw new ConfigError(`--record-requests: cannot write ${file}: ${why}`, {
      file,
      field: '--record-requests',
    });
  };
  const directory = path.dirname(path.resolve(file));
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory() === true) fail('it is a directory');
  try {
    if (!fs.statSync(directory).isDirectory()) fail(`not a directory: ${directory}`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    fail(`no such directory: ${directory}`);
  }
  try {
    fs.accessSync(stat === undefined ? directory : file, fs.constants.W_OK);
  } catch {
    fail('permission denied');
  }
  const requests: ModelRequest[] = [];
  return {
    append: (request) => {
      requests.push({ ...request, messages: [...request.messages] });
    },
    close: () => {
      // `tools` names the tools (what the conformance suite reads); `tool_definitions` is what the model was given.
      const lines = requests.map(
        (request) =>
          `${JSON.stringify({ system: request.system, tools: request.tools.map((tool) => tool.name), tool_definitions: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })), messages: toAnthropicMessages(request.messages) })}\n`,
      );
      fs.appendFileSync(file, lines.join(''), { mode: 0o600 });
    },
  };
}
