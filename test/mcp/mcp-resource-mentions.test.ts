import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text } from '../support/scripted-run.js';

// `@server:uri` in a typed prompt, against a published server's resources:
// @modelcontextprotocol/server-everything over stdio serves its docs folder as
// demo://resource/static/document/<file>. Needs `npm run build` first.
const EVERYTHING_DIR = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/', import.meta.url),
);

interface Request {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

function userTexts(request: Request | undefined): string[] {
  return (request?.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.filter((block) => block.type === 'text').map((block) => block.text ?? ''),
    );
}

function runPrompt(prompt: string) {
  const dir = tempProject();
  writeJson(dir, 'mcp.json', {
    mcpServers: {
      everything: { command: process.execPath, args: [path.join(EVERYTHING_DIR, 'index.js'), 'stdio'] },
    },
  });
  writeJson(dir, 't.json', [[text('done')]]);
  const requests = path.join(dir, 'requests.jsonl');
  const result = runCli(
    [
      '-p',
      prompt,
      '--strict-mcp-config',
      '--mcp-config',
      'mcp.json',
      '--model-script',
      't.json',
      '--record-requests',
      requests,
    ],
    dir,
  );
  const sent = fs
    .readFileSync(requests, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Request);
  return { ...result, sent };
}

const reminder = (value: string) => `<system-reminder>\n${value}\n</system-reminder>`;

describe('@server:uri resource mentions (server-everything over stdio)', () => {
  it("attaches the resource's text after the prompt, which stays as typed, as Claude Code does", () => {
    const prompt = 'Summarise @everything:demo://resource/static/document/features.md please';
    const { status, sent, stderr } = runPrompt(prompt);
    expect(status).toBe(0);
    expect(stderr).not.toContain('left as typed');
    const document = fs.readFileSync(path.join(EVERYTHING_DIR, 'docs', 'features.md'), 'utf8');
    expect(userTexts(sent[0])).toEqual([
      prompt,
      reminder('Full contents of resource:'),
      reminder(document),
      reminder(
        'Do NOT read this resource again unless you think it may have changed, since you already have the full contents.',
      ),
    ]);
  });

  it('a mention of an unknown server or an unlisted resource is left as typed, with one warning each', () => {
    const prompt = 'compare @nosuch:x://y with @everything:demo://resource/static/document/missing.md';
    const { status, sent, stderr } = runPrompt(prompt);
    expect(status).toBe(0);
    expect(userTexts(sent[0])).toEqual([prompt]);
    const warnings = stderr.split('\n').filter((line) => line.includes('left as typed'));
    expect(warnings).toEqual([
      'hookloop: warning: @nosuch:x://y is left as typed: no connected MCP server is named "nosuch"',
      'hookloop: warning: @everything:demo://resource/static/document/missing.md is left as typed: MCP server "everything" lists no resource demo://resource/static/document/missing.md',
    ]);
  });
});
