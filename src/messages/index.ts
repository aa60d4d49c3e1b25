/** Provider-neutral chat messages, frozen on construction. */
export {
  assistantMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type AssistantMessage,
  type Message,
  type SystemMessage,
  type ToolCall,
  type ToolResultMessage,
  type UserMessage,
} from './messages.js';
