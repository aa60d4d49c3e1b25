/**
 * `hookloop/testing`: the scripted model for tests and offline runs. It replays turns given as
 * Anthropic content blocks (the `model` array of a conformance scenario), records every request,
 * and is strict (fails on an unexpected or unconsumed turn) or lenient (`done (script exhausted)`).
 */
export {
  ScriptedModel,
  SCRIPT_EXHAUSTED_TEXT,
  type AuxRule,
  type ScriptBlock,
  type ScriptTurn,
  type ScriptedModelOptions,
} from './model/scripted-model.js';
