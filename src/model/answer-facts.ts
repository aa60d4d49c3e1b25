/** What a model answer reports about itself, shared by the client interface and the stream events. */

/** Token counts reported by the provider for one request. Missing counts are 0. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens?: number;
  readonly cacheCreationInputTokens?: number;
}

/** Why the model stopped: `end_turn` (answer done), `tool_use` (wants tools), `max_tokens`, or another provider value. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | (string & {});
