import type * as sdk from '@anthropic-ai/claude-agent-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as hookloop from '../../src/agent-sdk/index.js';

/*
 * The Agent SDK's documented option objects, typed with the real SDK's own types (a dev
 * dependency, imported for types only), are accepted by hookloop's query(): an SDK program that
 * changes its import line still compiles.
 */

const preToolUse: sdk.HookCallback = async (input, toolUseID, { signal }) => {
  void toolUseID;
  void signal;
  if (input.hook_event_name !== 'PreToolUse') return {};
  const command = (input.tool_input as { command?: string }).command ?? '';
  return command.includes('rm -rf')
    ? {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'Dangerous command blocked',
        },
      }
    : {};
};

const postToolUse: sdk.HookCallback = async (input) => {
  if (input.hook_event_name === 'PostToolUse') console.log(input.tool_name, input.tool_response);
  return { async: true, asyncTimeout: 30000 };
};

const stop: sdk.HookCallback = async (input) =>
  input.hook_event_name === 'Stop' && !input.stop_hook_active
    ? { decision: 'block', reason: 'Run the tests first', systemMessage: 'tests were not run' }
    : { continue: true, suppressOutput: true };

const canUseTool: sdk.CanUseTool = async (toolName, input, { signal, toolUseID }) => {
  void signal;
  void toolUseID;
  if (toolName === 'Bash') return { behavior: 'deny', message: 'No shell here', interrupt: false };
  return { behavior: 'allow', updatedInput: input };
};

// An in-process server as the SDK's createSdkMcpServer returns it (the SDK is never run here).
declare const server: sdk.McpSdkServerConfigWithInstance;

const documented: sdk.Options = {
  model: 'claude-sonnet-4-5',
  cwd: '/tmp/project',
  env: { ...process.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
  systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Be brief.' },
  settingSources: ['project'],
  permissionMode: 'acceptEdits',
  allowedTools: ['Read', 'Grep', 'Bash(npm test:*)', 'mcp__weather__get_weather'],
  disallowedTools: ['WebFetch'],
  maxTurns: 10,
  includePartialMessages: true,
  abortController: new AbortController(),
  canUseTool,
  mcpServers: {
    weather: server,
    files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
    remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
  },
  agents: {
    'code-reviewer': {
      description: 'Reviews code for quality',
      prompt: 'You are a code reviewer.',
      tools: ['Read', 'Grep', 'Glob'],
      model: 'sonnet',
    },
  },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [preToolUse], timeout: 30 }],
    PostToolUse: [{ hooks: [postToolUse] }],
    Stop: [{ hooks: [stop] }],
  },
  resume: '5f6d3c0e-2a4b-4c8d-9e1f-0a1b2c3d4e5f',
  forkSession: true,
  pathToClaudeCodeExecutable: '/usr/local/bin/claude',
};

describe('hookloop/agent-sdk accepts the Agent SDK’s own types', () => {
  it('query() takes an options object typed as the SDK’s Options', () => {
    expectTypeOf(hookloop.query({ prompt: 'hi', options: documented })).toMatchTypeOf<
      AsyncGenerator<hookloop.SDKMessage, void>
    >();
  });

  it('query() takes option literals written for the SDK, callbacks and all', () => {
    hookloop.query({
      prompt: 'Find and fix the bug in auth.py',
      options: {
        allowedTools: ['Read', 'Edit', 'Bash'],
        systemPrompt: 'You are a careful engineer.',
        hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [preToolUse] }] },
        canUseTool,
        mcpServers: { weather: server },
        stderr: (data) => process.stderr.write(data),
      },
    });
  });

  it('query() takes a streaming prompt of the SDK’s user messages', () => {
    async function* prompts(): AsyncGenerator<sdk.SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'hello' }, parent_tool_use_id: null };
    }
    expectTypeOf(hookloop.query).toBeCallableWith({ prompt: prompts() });
  });

  it('hookloop’s tool() and createSdkMcpServer() build the same shapes as the SDK’s', () => {
    const ours = hookloop.createSdkMcpServer({
      name: 'weather',
      tools: [
        hookloop.tool('get_weather', 'Weather in a city', { city: z.string() }, async (args) => {
          expectTypeOf(args.city).toEqualTypeOf<string>();
          return { content: [{ type: 'text', text: args.city }] };
        }),
      ],
    });
    expectTypeOf(ours).toMatchTypeOf<hookloop.McpServerConfig>();
  });
  it('the README example compiles as written', () => {
    async function readmeExample(): Promise<void> {
      for await (const message of hookloop.query({
        prompt: 'Find and fix the failing test',
        options: {
          allowedTools: ['Read', 'Edit', 'Bash(npm test:*)'],
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [
                  async (input) =>
                    input.hook_event_name === 'PreToolUse' && /rm -rf/.test(JSON.stringify(input.tool_input))
                      ? {
                          hookSpecificOutput: {
                            hookEventName: 'PreToolUse',
                            permissionDecision: 'deny',
                            permissionDecisionReason: 'no rm -rf',
                          },
                        }
                      : {},
                ],
              },
            ],
          },
        },
      }))
        if (message.type === 'result') console.log(message.subtype, message.result);
    }
    expectTypeOf(readmeExample).returns.toEqualTypeOf<Promise<void>>();
  });
});
