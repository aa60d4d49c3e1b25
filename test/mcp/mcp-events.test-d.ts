import { describe, expectTypeOf, it } from 'vitest';
import { HookEngine, type HookOutput } from '../../src/index.js';

describe('MCP in the event map', () => {
  it('types mcp_server on tool events and the Elicitation events', () => {
    const hooks = new HookEngine();
    hooks.on('PreToolUse', (input) => {
      expectTypeOf(input.mcp_server).toEqualTypeOf<{ name: string; source: string } | undefined>();
    });
    hooks.on('Elicitation', (input) => {
      expectTypeOf(input.mcp_server_name).toEqualTypeOf<string>();
      expectTypeOf(input.mode).toEqualTypeOf<'form' | 'url'>();
      return {
        hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { color: 'blue' } },
      };
    });
    hooks.on('ElicitationResult', (input) => {
      expectTypeOf(input.action).toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
    });
    // prettier-ignore
    // @ts-expect-error an Elicitation answer has no permissionDecision
    hooks.on('Elicitation', (): HookOutput<'Elicitation'> => ({ hookSpecificOutput: { hookEventName: 'Elicitation', permissionDecision: 'allow' } }));
    hooks.on('PostToolUse', (): HookOutput<'PostToolUse'> => ({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedMCPToolOutput: [{ type: 'text', text: 'x' }],
      },
    }));
  });
});
