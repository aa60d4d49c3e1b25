import { ConfigError } from '../errors.js';
import type { Options } from './sdk-options.js';
import { checkStoreOptions } from './store-resume.js';

/**
 * Keys of the Agent SDK's options that only steer its Claude Code process (which executable,
 * its arguments, its debug log, how long it may take to start): there is no such process here,
 * so they are accepted and have nothing to act on.
 */
const PROCESS_ONLY = new Set([
  'executable',
  'executableArgs',
  'pathToClaudeCodeExecutable',
  'debug',
  'debugFile',
  'mcpServersDelivery',
  'pluginDelivery',
]);

/** The keys `query()` acts on. */
const SUPPORTED = new Set([
  'abortController',
  'additionalDirectories',
  'agents',
  'allowedTools',
  'canUseTool',
  'continue',
  'cwd',
  'disallowedTools',
  'tools',
  'env',
  'forkSession',
  'hooks',
  'includePartialMessages',
  'maxTurns',
  'maxBudgetUsd',
  'mcpServers',
  'model',
  'permissionMode',
  'allowDangerouslySkipPermissions',
  'permissionPromptToolName',
  'persistSession',
  'resume',
  'sessionId',
  'sessionStore',
  'sessionStoreFlush',
  'loadTimeoutMs',
  'settings',
  'settingSources',
  'stderr',
  'strictMcpConfig',
  'systemPrompt',
  'hookloop',
]);

/** Unsupported keys whose `false` is the SDK's default, which hookloop does by nature. */
const FALSE_IS_DEFAULT = new Set([
  'enableFileCheckpointing',
  'includeHookEvents',
  'forwardSubagentText',
  'verbatimPrompts',
  'promptSuggestions',
  'agentProgressSummaries',
  'perTaskStopAffordance',
]);

/** The fields of an `agents` entry hookloop runs. */
const AGENT_FIELDS = new Set([
  'description',
  'prompt',
  'tools',
  'disallowedTools',
  'model',
  'maxTurns',
  'permissionMode',
]);

/**
 * Refuses what `query()` cannot honour, before anything starts: one ConfigError naming the option
 * (`query() options.fallbackModel: not supported by hookloop/agent-sdk`), never a silent ignore.
 * Unknown keys are refused the same way; so is an `agents`
 * entry with a field hookloop does not run (`agents.reviewer.mcpServers`), and the store options
 * checkStoreOptions refuses (`sessionStore` with `persistSession: false`).
 * @throws ConfigError as above.
 */
export function checkOptions(options: Options): void {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || SUPPORTED.has(key) || PROCESS_ONLY.has(key)) continue;
    if (value === false && FALSE_IS_DEFAULT.has(key)) continue;
    throw new ConfigError(`query() options.${key}: not supported by hookloop/agent-sdk`, { field: key });
  }
  for (const [name, definition] of Object.entries(options.agents ?? {})) {
    for (const field of Object.keys(definition ?? {}))
      if (!AGENT_FIELDS.has(field) && (definition as unknown as Record<string, unknown>)[field] !== undefined)
        throw new ConfigError(
          `query() options.agents.${name}.${field}: not supported by hookloop/agent-sdk`,
          {
            field: `agents.${name}.${field}`,
          },
        );
  }
  checkStoreOptions(options);
  if (options.permissionMode === 'bypassPermissions' && options.allowDangerouslySkipPermissions !== true)
    throw new ConfigError(
      'query() options.permissionMode: "bypassPermissions" needs allowDangerouslySkipPermissions: true',
      { field: 'permissionMode' },
    );
}
