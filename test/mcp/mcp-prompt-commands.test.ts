import fs from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInteractive } from '../../src/cli/interactive.js';
import { startSession } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text } from '../support/scripted-run.js';

// A published server's prompts as `/mcp__<server>__<prompt>` commands, typed by a user in -p and in
// interactive mode: @modelcontextprotocol/server-everything over stdio (`args-prompt` takes a
// required `city` and an optional `state`). Needs `npm run build` first for the CLI part.
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const everything = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } };

interface Request {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

/** The user texts of a recorded request, in order. */
function userTexts(request: Request | undefined): string[] {
  return (request?.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.filter((block) => block.type === 'text').map((block) => block.text ?? ''),
    );
}

const markup = (name: string, args: string) =>
  `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n${args === '' ? '' : `<command-args>${args}</command-args>\n`}`;

/** `hookloop -p PROMPT` with server-everything, UserPromptExpansion's stdin logged; the model's requests. */
function runPrompt(prompt: string, expansionHooks: unknown[] = []) {
  const dir = tempProject();
  writeJson(dir, 'mcp.json', { mcpServers: everything });
  writeJson(dir, 't.json', [[text('done')]]);
  const log = {
    type: 'command',
    command: 'cat >> "$CLAUDE_PROJECT_DIR/events.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/events.jsonl"',
  };
  writeJson(dir, 's.json', {
    hooks: { UserPromptExpansion: [{ matcher: 'mcp__everything__.*', hooks: [log, ...expansionHooks] }] },
  });
  const requests = path.join(dir, 'requests.jsonl');
  const result = runCli(
    [
      '-p',
      prompt,
      '--strict-mcp-config',
      '--mcp-config',
      'mcp.json',
      '--settings',
      's.json',
      '--model-script',
      't.json',
      '--record-requests',
      requests,
    ],
    dir,
  );
  const read = (file: string) =>
    fs.existsSync(file)
      ? fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return {
    ...result,
    sent: read(requests) as unknown as Request[],
    expansions: read(path.join(dir, 'events.jsonl')),
  };
}

describe("MCP prompts as slash commands (server-everything's prompts over stdio)", () => {
  it('-p: `/mcp__everything__args-prompt Paris Texas` fires UserPromptExpansion and reaches the model as the markup and the prompt text', () => {
    const { status, sent, expansions } = runPrompt('/mcp__everything__args-prompt Paris Texas');
    expect(status).toBe(0);
    expect(userTexts(sent[0])).toEqual([
      markup('mcp__everything__args-prompt', 'Paris Texas'),
      "What's weather in Paris, Texas?",
    ]);
    expect(expansions).toHaveLength(1);
    expect(expansions[0]).toMatchObject({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'mcp_prompt',
      command_name: 'mcp__everything__args-prompt',
      command_args: 'Paris Texas',
      command_source: 'mcp',
      prompt: '/mcp__everything__args-prompt Paris Texas',
    });
  });

  it('a UserPromptExpansion block keeps the prompt from the model', () => {
    const blocker = { type: 'command', command: `echo '{"decision":"block","reason":"no weather today"}'` };
    const { status, sent, stdout } = runPrompt('/mcp__everything__args-prompt Paris', [blocker]);
    expect(status).toBe(0);
    expect(sent).toEqual([]);
    expect(stdout).toContain('no weather today');
  });

  it('a prompt the server refuses (its required argument missing) is sent as typed, with a warning; an unknown prompt is sent as typed', () => {
    const missing = runPrompt('/mcp__everything__args-prompt');
    expect(missing.status).toBe(0);
    expect(missing.stderr).toContain('MCP prompt /mcp__everything__args-prompt failed: ');
    expect(userTexts(missing.sent[0])).toEqual(['/mcp__everything__args-prompt']);
    const unknown = runPrompt('/mcp__everything__no-such-prompt x');
    expect(unknown.expansions).toEqual([]);
    expect(userTexts(unknown.sent[0])).toEqual(['/mcp__everything__no-such-prompt x']);
  });

  it(
    'interactive mode: a prompt typed at the terminal expands the same way',
    { timeout: 60_000 },
    async () => {
      const model = new ScriptedModel([[text('first')], [text('second')]]);
      const session = await startSession({
        model,
        projectDir: tempProject(),
        tools: [],
        mcpServers: everything,
      });
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
      const done = runInteractive(
        { session },
        { input, output, notices: new PassThrough(), signals: new EventEmitter() },
      );
      input.write('hello\n');
      for (let waited = 0; !shown.includes('first'); waited += 10) {
        if (waited > 30_000) throw new Error('no answer to the first prompt');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      input.write('/mcp__everything__simple-prompt\n/exit\n');
      expect(await done).toBe(0);
      const second = model.requests[1] as unknown as Request;
      expect(userTexts(second).slice(-2)).toEqual([
        markup('mcp__everything__simple-prompt', ''),
        'This is a simple prompt without arguments.',
      ]);
    },
  );
});
