import { ConfigError } from '../errors.js';
import type { AnthropicModelOptions } from '../model/anthropic/anthropic-model.js';
import type { ModelClient } from '../model/model-client.js';
import type { OpenAICompatibleModelOptions } from '../model/openai/openai-model.js';
import type { RetryOptions } from '../model/retry.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { SYSTEM_MESSAGE_SETTINGS, type SystemMessageSetting } from '../model/system-messages.js';
import { loadModelScriptFile } from './load-model-script.js';

/** The providers `--provider` names. */
export const PROVIDER_NAMES = ['anthropic', 'openai', 'scripted'] as const;
/** A provider `--provider` accepts. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The Anthropic model used when neither `--model` nor `ANTHROPIC_MODEL` names one. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';

/** What the flags say about the model. */
export interface ModelFlags {
  readonly provider?: ProviderName | undefined;
  readonly model?: string | undefined;
  readonly modelScript?: string | undefined;
}

/** Settings shared by the real providers, read from the environment. */
interface CommonSettings {
  readonly systemMessages: SystemMessageSetting;
  readonly timeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  readonly maxTokens: number | undefined;
}

/**
 * The chosen model, before anything is loaded or connected. `why` says what chose it
 * (`--provider`, `--model-script`, `ANTHROPIC_API_KEY`…), for `--verbose`.
 */
export type ModelSelection =
  | { readonly provider: 'scripted'; readonly modelScript: string; readonly why: string }
  | { readonly provider: 'anthropic'; readonly options: AnthropicModelOptions; readonly why: string }
  | { readonly provider: 'openai'; readonly options: OpenAICompatibleModelOptions; readonly why: string }
  | { readonly provider: 'none' };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Chooses the model provider. Pure (reads only its arguments). The order:
 * 1. `--provider anthropic|openai|scripted` when given;
 * 2. `--model-script FILE` → scripted;
 * 3. `ANTHROPIC_API_KEY` or `ANTHROPIC_AUTH_TOKEN` set → anthropic;
 * 4. `OPENAI_API_KEY` or `OPENAI_BASE_URL` set → openai;
 * 5. none (the CLI prints the "no model configured" message).
 * Anthropic: `--model`, else `ANTHROPIC_MODEL`, else DEFAULT_ANTHROPIC_MODEL; `ANTHROPIC_BASE_URL`.
 * OpenAI-compatible: `--model`, else `OPENAI_MODEL` (required: servers name models differently); `OPENAI_BASE_URL`.
 * Both: `HOOKLOOP_SYSTEM_MESSAGES` (auto|system-role|user-text), `API_TIMEOUT_MS` (request timeout),
 * `HOOKLOOP_MAX_RETRIES`, `HOOKLOOP_MAX_OUTPUT_TOKENS`; Anthropic also `DISABLE_PROMPT_CACHING=1`.
 * @throws ConfigError naming the flag or variable: a provider without what it needs (key, model),
 *   `--model-script` with another provider, a malformed number or setting.
 */
export function selectModel(flags: ModelFlags, env: Env): ModelSelection {
  if (flags.provider === 'scripted' || (flags.provider === undefined && flags.modelScript !== undefined)) {
    if (flags.modelScript === undefined)
      throw new ConfigError(
        '--provider scripted needs --model-script FILE (a scenario.json or an array of turns)',
        { field: '--model-script' },
      );
    return {
      provider: 'scripted',
      modelScript: flags.modelScript,
      why: flags.provider ? '--provider scripted' : '--model-script',
    };
  }
  if (flags.modelScript !== undefined)
    throw new ConfigError(
      `--model-script replays a scripted model; it cannot be combined with --provider ${flags.provider}`,
      { field: '--model-script' },
    );
  const anthropicKey = env['ANTHROPIC_API_KEY'] || undefined;
  const anthropicToken = env['ANTHROPIC_AUTH_TOKEN'] || undefined;
  const openaiKey = env['OPENAI_API_KEY'] || undefined;
  const openaiBase = env['OPENAI_BASE_URL'] || undefined;
  const provider =
    flags.provider ??
    (anthropicKey || anthropicToken ? 'anthropic' : openaiKey || openaiBase ? 'openai' : undefined);
  if (provider === undefined) return { provider: 'none' };
  const why = flags.provider
    ? `--provider ${flags.provider}`
    : provider === 'anthropic'
      ? anthropicKey
        ? 'ANTHROPIC_API_KEY'
        : 'ANTHROPIC_AUTH_TOKEN'
      : openaiKey
        ? 'OPENAI_API_KEY'
        : 'OPENAI_BASE_URL';
  const common = commonSettings(env);
  const shared = {
    systemMessages: common.systemMessages,
    timeoutMs: common.timeoutMs,
    maxTokens: common.maxTokens,
    retry: common.maxRetries !== undefined ? { maxRetries: common.maxRetries } : undefined,
  };
  if (provider === 'anthropic') {
    if (!anthropicKey && !anthropicToken)
      throw new ConfigError(
        '--provider anthropic: no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway)',
        { field: 'ANTHROPIC_API_KEY' },
      );
    const model = flags.model ?? (env['ANTHROPIC_MODEL'] || DEFAULT_ANTHROPIC_MODEL);
    return {
      provider,
      why,
      options: {
        model,
        apiKey: anthropicKey,
        authToken: anthropicToken,
        baseURL: env['ANTHROPIC_BASE_URL'] || undefined,
        promptCaching: env['DISABLE_PROMPT_CACHING'] !== '1',
        ...shared,
      },
    };
  }
  if (!openaiKey && !openaiBase)
    throw new ConfigError(
      '--provider openai: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (any OpenAI-compatible server)',
      { field: 'OPENAI_API_KEY' },
    );
  const model = flags.model ?? (env['OPENAI_MODEL'] || undefined);
  if (model === undefined)
    throw new ConfigError(
      'the OpenAI-compatible provider needs a model: pass --model NAME or set OPENAI_MODEL',
      { field: 'OPENAI_MODEL' },
    );
  return { provider: 'openai', why, options: { model, apiKey: openaiKey, baseURL: openaiBase, ...shared } };
}

/** One line for `--verbose`: `anthropic claude-sonnet-5-5 at http://127.0.0.1:8800 (chosen by ANTHROPIC_API_KEY)`. */
export function describeSelection(selection: Exclude<ModelSelection, { provider: 'none' }>): string {
  if (selection.provider === 'scripted')
    return `scripted ${selection.modelScript} (chosen by ${selection.why})`;
  const where = selection.options.baseURL ? ` at ${selection.options.baseURL}` : '';
  return `${selection.provider} ${selection.options.model}${where} (chosen by ${selection.why})`;
}

/**
 * Builds the ModelClient of a selection. `onRetry` is told about each retry of a real provider
 * (for a warning on stderr). The provider SDKs are loaded here, on demand, so that a scripted run
 * does not pay for loading them (about 0.3 s).
 * @throws ConfigError for an unreadable or invalid model script; Error for selection `none`.
 */
export async function createModel(
  selection: ModelSelection,
  context: { projectDir: string; onRetry?: RetryOptions['onRetry'] },
): Promise<ModelClient> {
  switch (selection.provider) {
    case 'scripted': {
      const script = loadModelScriptFile(selection.modelScript, context.projectDir);
      return new ScriptedModel(script.turns, { mode: 'lenient', ...(script.aux ? { aux: script.aux } : {}) });
    }
    case 'anthropic': {
      const { AnthropicModel } = await import('../model/anthropic/anthropic-model.js');
      return new AnthropicModel({
        ...selection.options,
        retry: { ...selection.options.retry, ...(context.onRetry ? { onRetry: context.onRetry } : {}) },
      });
    }
    case 'openai': {
      const { OpenAICompatibleModel } = await import('../model/openai/openai-model.js');
      return new OpenAICompatibleModel({
        ...selection.options,
        retry: { ...selection.options.retry, ...(context.onRetry ? { onRetry: context.onRetry } : {}) },
      });
    }
    case 'none':
      throw new Error('createModel: no model was selected');
  }
}

function commonSettings(env: Env): CommonSettings {
  const setting = env['HOOKLOOP_SYSTEM_MESSAGES'] || 'auto';
  if (!(SYSTEM_MESSAGE_SETTINGS as readonly string[]).includes(setting)) {
    throw new ConfigError(
      `HOOKLOOP_SYSTEM_MESSAGES: expected one of ${SYSTEM_MESSAGE_SETTINGS.join(', ')}, got "${setting}"`,
      { field: 'HOOKLOOP_SYSTEM_MESSAGES' },
    );
  }
  return {
    systemMessages: setting as SystemMessageSetting,
    timeoutMs: wholeNumber(env, 'API_TIMEOUT_MS', 1),
    maxRetries: wholeNumber(env, 'HOOKLOOP_MAX_RETRIES', 0),
    maxTokens: wholeNumber(env, 'HOOKLOOP_MAX_OUTPUT_TOKENS', 1),
  };
}

function wholeNumber(env: Env, name: string, minimum: number): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum)
    throw new ConfigError(`${name}: expected a whole number ≥ ${minimum}, got "${text}"`, { field: name });
  return value;
}
