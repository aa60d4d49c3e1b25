#!/usr/bin/env node
// The agent command the conformance runner starts for the OpenAI-compatible path: it serves the
// scenario's turns ($ORACLE_MODEL_SCRIPT, `<ws>` already expanded by the runner) from a local
// chat-completions mock, runs the built hookloop CLI against it with `--provider openai`, passes
// the runner's arguments, stdio and exit code through, and leaves the mock's request bodies in
// $ORACLE_MODEL_SCRIPT.chat-requests.jsonl for the test to read.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import process from 'node:process';
import { startChatMock } from './mock-chat-completions.mjs';

const [cli, ...args] = process.argv.slice(2);
const script = process.env.ORACLE_MODEL_SCRIPT;
const mock = await startChatMock({ model: JSON.parse(fs.readFileSync(script, 'utf8')) });
const env = { ...process.env, OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test' };
delete env.ANTHROPIC_API_KEY;
delete env.ANTHROPIC_BASE_URL;
const child = spawn(process.execPath, [cli, '--provider', 'openai', '--model', 'gpt-mock', ...args], {
  env,
  stdio: 'inherit',
});
const code = await new Promise((resolve) =>
  child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1))),
);
fs.writeFileSync(
  `${script}.chat-requests.jsonl`,
  mock.requests.map((body) => `${JSON.stringify(body)}\n`).join(''),
);
await mock.close();
process.exit(code);
