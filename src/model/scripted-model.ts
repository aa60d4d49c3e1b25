import { ProviderError } from '../errors.js';
import { assistantMessage, type ToolCall } from '../messages/messages.js';
import type { ModelClient, ModelRequest, ModelResponse, Usage } from './model-client.js';

/** An Anthropic content block as a scenario's `model` array holds them. Other block types are ignored. */
export type ScriptBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly type: string; readonly [key: string]: unknown };

/**
 * One scripted turn: a bare array of content blocks, or the conformance runner's object form.
 * `match`: only a request whose system prompt or messages contain this text may use the entry;
 * `usage`: reported token counts (Anthropic names); `stop_reason`: overrides the derived one;
 * `error`: answer with an API error instead; `sticky`: never used up.
 */
export type ScriptTurn =
  | readonly ScriptBlock[]
  | {
      readonly content?: readonly ScriptBlock[];
      readonly match?: string;
      readonly usage?: {
        input_tokens?: number;
        output_tokens?: number;
        cache_read_input_tokens?: number;
        cache_creation_input_tokens?: number;
      };
      readonly stop_reason?: string;
      readonly error?: { status?: number; type?: string; message?: string };
      readonly sticky?: boolean;
      readonly delay_ms?: number;
    };

/**
 * An answer for requests without tools (prompt hooks, summaries), as the conformance mock's `aux`
 * rules: the first rule whose `match` occurs in the request's system prompt or messages answers
 * with `content`, or the text `text` (default `ok`).
 */
export interface AuxRule {
  readonly match?: string;
  readonly text?: string;
  readonly content?: readonly ScriptBlock[];
}

/** Options of the scripted model. */
export interface ScriptedModelOptions {
  /**
   * Answers for requests that offer no tools, which then never use a scripted turn (the conformance
   * mock's routing). Without `aux`, every request takes the next eligible turn.
   */
  readonly aux?: readonly AuxRule[];
  /**
   * `strict` (default): a request with no eligible turn left rejects with a ProviderError, and
   * `assertConsumed()` throws when turns were never used. `lenient`: such a request is answered
   * `done (script exhausted)`, as the conformance runner's mock does.
   */
  readonly mode?: 'strict' | 'lenient';
  /**
   * Keep every request in `requests` (default true). Each keeps its own copy of the conversation,
   * so a script of thousands of turns keeps millions of message references: benchmarks turn it off.
   */
  readonly record?: boolean;
}

/** The text a lenient scripted model answers once its script is used up (the conformance mock's words). */
export const SCRIPT_EXHAUSTED_TEXT = 'done (script exhausted)';

/**
 * A ModelClient that replays scripted turns (exactly the `model` array of a conformance scenario)
 * and records every request it receives in `requests`. Entries are taken in order: the first unused
 * eligible entry answers. Used by tests and by the offline demo; public as `hookloop/testing`.
 */
export class ScriptedModel implements ModelClient {
  readonly name = 'scripted';
  /** Every request received, in order, each with a copy of the conversation as it was then (unless `record: false`). */
  readonly requests: ModelRequest[] = [];
  private received = 0;
  private readonly record: boolean;
  private readonly turns: readonly ScriptTurn[];
  private readonly used: boolean[];
  private readonly mode: 'strict' | 'lenient';
  private readonly aux: readonly AuxRule[] | undefined;

  constructor(turns: readonly ScriptTurn[], options: ScriptedModelOptions = {}) {
    this.turns = turns;
    this.used = turns.map(() => false);
    this.mode = options.mode ?? 'strict';
    this.aux = options.aux;
    this.record = options.record ?? true;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.received++;
    // The conversation is the caller's live list (ModelRequest): a record of it must be a copy.
    if (this.record) {
      const { model, maxTokens, toolChoice } = request;
      this.requests.push({
        system: request.system,
        messages: [...request.messages],
        tools: request.tools,
        ...(model !== undefined ? { model } : {}),
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        ...(toolChoice !== undefined ? { toolChoice } : {}),
      });
    }
    if (request.signal?.aborted) throw new ProviderError('scripted', 'request aborted', { retryable: false });
    if (this.aux !== undefined && request.tools.length === 0) {
      const haystack = request.system + '\n' + JSON.stringify(request.messages);
      const rule = this.aux.find(
        (candidate) => candidate.match === undefined || haystack.includes(candidate.match),
      );
      return respond(rule?.content ?? [{ type: 'text', text: rule?.text ?? 'ok' }], {}, undefined);
    }
    const index = this.pick(request);
    if (index < 0) {
      if (this.mode === 'lenient')
        return respond([{ type: 'text', text: SCRIPT_EXHAUSTED_TEXT }], {}, undefined);
      throw new ProviderError(
        'scripted',
        `scripted model: no scripted turn left for request ${this.received} (strict mode)`,
      );
    }
    const turn = this.turns[index]!;
    const entry = Array.isArray(turn)
      ? { content: turn as readonly ScriptBlock[] }
      : (turn as Exclude<ScriptTurn, readonly ScriptBlock[]>);
    if (!entry.sticky) this.used[index] = true;
    if (entry.delay_ms) await new Promise((resolve) => setTimeout(resolve, entry.delay_ms));
    if (entry.error) {
      const status = entry.error.status ?? 500;
      throw new ProviderError(
        'scripted',
        `API Error: ${status} ${entry.error.message ?? entry.error.type ?? 'scripted error'}`,
        { status, retryable: status === 429 || status >= 500 },
      );
    }
    return respond(entry.content ?? [], entry.usage ?? {}, entry.stop_reason);
  }

  /** Number of turns never used. */
  get remaining(): number {
    return this.turns.filter(
      (turn, index) => !this.used[index] && !(!Array.isArray(turn) && (turn as { sticky?: boolean }).sticky),
    ).length;
  }

  /** @throws Error naming the unconsumed turns (strict scripts only; lenient ones never throw). */
  assertConsumed(): void {
    if (this.mode === 'strict' && this.remaining > 0) {
      throw new Error(`scripted model: ${this.remaining} scripted turn(s) were never requested`);
    }
  }

  private pick(request: ModelRequest): number {
    let haystack: string | undefined;
    for (let index = 0; index < this.turns.length; index++) {
      if (this.used[index]) continue;
      const turn = this.turns[index]!;
      const match = Array.isArray(turn) ? undefined : (turn as { match?: string }).match;
      if (match === undefined) return index;
      haystack ??= request.system + '\n' + JSON.stringify(request.messages);
      if (haystack.includes(match)) return index;
    }
    return -1;
  }
}

function respond(
  blocks: readonly ScriptBlock[],
  usage: NonNullable<Exclude<ScriptTurn, readonly ScriptBlock[]>['usage']>,
  stopReason: string | undefined,
): ModelResponse {
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push(String((block as { text: unknown }).text));
    else if (block.type === 'tool_use') {
      const use = block as { id: string; name: string; input: unknown };
      calls.push({ id: use.id, name: use.name, input: use.input ?? {} });
    }
  }
  const counted: Usage = {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    ...(usage.cache_read_input_tokens !== undefined
      ? { cacheReadInputTokens: usage.cache_read_input_tokens }
      : {}),
    ...(usage.cache_creation_input_tokens !== undefined
      ? { cacheCreationInputTokens: usage.cache_creation_input_tokens }
      : {}),
  };
  return {
    message: assistantMessage(texts.join('\n\n'), calls),
    usage: counted,
    stopReason: stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
    model: 'scripted',
  };
}
