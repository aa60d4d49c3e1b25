import { Option, type Command } from 'commander';
import { CLI_PERMISSION_MODES } from '../run/permission-mode.js';
import { positiveAmount, positiveInteger } from './run-flags.js';
import { PROVIDER_NAMES } from './select-model.js';

/**
 * Declares the run command's arguments and flags (Claude Code's names where they overlap) on
 * `program`; with `prompt: false` (a worker, which takes its prompts from the server) without the
 * prompt argument and `-p`.
 */
export function declareRunFlags(program: Command, options: { readonly prompt?: boolean } = {}): Command {
  const withPrompt =
    options.prompt === false
      ? program
      : program
          .argument('[prompt]', 'the prompt (same as -p); text piped on stdin is added after it')
          // Extra words are reported by the action, with a hint to quote them.
          .allowExcessArguments()
          .option(
            '-p, --print [prompt]',
            'run one prompt headless and print the answer (the prompt may come on stdin: echo "…" | hookloop -p)',
          );
  return withPrompt
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON) with hooks and permissions')
    .option(
      '--setting-sources <sources>',
      'comma-separated settings files to read: user, project, local (--settings always counts)',
    )
    .addOption(
      new Option('--output-format <format>', 'text, json or stream-json')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--input-format <format>',
        'text, or stream-json: user messages as JSON lines on stdin (needs --output-format stream-json)',
      )
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .option(
      '--include-partial-messages',
      "with -p --output-format stream-json: also stream the model's partial answer as stream_event lines",
      false,
    )
    .addOption(
      new Option(
        '--permission-mode <mode>',
        'permission mode (auto runs as dontAsk: hookloop has no classifier)',
      ).choices([...CLI_PERMISSION_MODES]),
    )
    .option('--allowedTools <rules...>', 'allow rules, e.g. "Bash(git:*)" Edit')
    .option('--disallowedTools <rules...>', 'deny rules')
    .option('--add-dir <dirs...>', 'extra directories the file tools may use')
    .option('--max-turns <n>', 'maximum model turns', (value) => positiveInteger('--max-turns', value))
    .addOption(
      new Option('--provider <name>', 'model provider (default: inferred from the environment)').choices([
        ...PROVIDER_NAMES,
      ]),
    )
    .option('--model <id>', 'model id, e.g. claude-sonnet-5-5 or gpt-5')
    .option(
      '--model-script <file>',
      'replay scripted model turns (a scenario.json or an array of Anthropic content-block turns)',
    )
    .option('--session-id <uuid>', 'the session id to use')
    .option('-c, --continue', 'continue the latest session of this directory', false)
    .option('-r, --resume <session-id>', 'continue the session with this id')
    .option(
      '--approve <tool-use-id>',
      'approve a pending tool call of the resumed session (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--deny <tool-use-id[=reason]>',
      'deny a pending tool call of the resumed session; the reason is its error result (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--verbose', 'print the lifecycle log on stderr', false)
    .option(
      '--plugin-dir <dir>',
      'load a Claude Code plugin directory: its hooks/hooks.json joins the settings (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--mcp-config <configs...>',
      'MCP servers from JSON files or strings ({"mcpServers": …}); repeatable',
    )
    .option(
      '--strict-mcp-config',
      'use only the --mcp-config servers, ignoring .mcp.json, ~/.claude.json and plugins',
      false,
    )
    .option(
      '--permission-prompt-tool <tool>',
      'an MCP tool (mcp__server__tool) that decides permission prompts headless',
    )
    .option(
      '--agents <json>',
      'subagent definitions as JSON: {"<name>": {"description": …, "prompt": …, "tools": […]}}',
    )
    .option(
      '--record-requests <file>',
      'append every model request (Anthropic wire shape) to FILE as JSON lines, for conformance checks',
    )
    .option(
      '--system-prompt <text>',
      "replace hookloop's system prompt (CLAUDE.md files still reach the model)",
    )
    .option('--system-prompt-file <file>', "replace hookloop's system prompt with a file's text")
    .option('--append-system-prompt <text>', 'add text at the end of the system prompt')
    .option('--append-system-prompt-file <file>', "add a file's text at the end of the system prompt")
    .option(
      '--dangerously-skip-permissions',
      'run in bypassPermissions mode (deny rules and the workspace boundary still hold)',
      false,
    )
    .option(
      '--fork-session',
      'with --resume/--continue: continue under a new session id, with a copy of the transcript',
      false,
    )
    .option(
      '--fallback-model <models>',
      'models to switch to (comma-separated, in order) when the main model stays overloaded or unavailable',
    )
    .option(
      '--max-budget-usd <amount>',
      'stop once the estimated cost of the run passes this many dollars',
      (value) => positiveAmount('--max-budget-usd', value),
    )
    .option(
      '--durable <ingress-url>',
      "hookloop's: run the session on a Restate server through its ingress (a `hookloop serve` worker runs it)",
    )
    .option(
      '--restate-admin <admin-url>',
      'with --durable: the Restate admin API, read to report a failing invocation (default: the ingress host, port 9070)',
    );
}
