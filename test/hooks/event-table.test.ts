import { describe, expect, it } from 'vitest';
import { buildPayload } from '../../src/hooks/payload.js';
import {
  EVENT_TABLE,
  eventSpec,
  FAIL_CLOSED_EVENTS,
  GATE_EVENTS,
  HOOK_EVENT_NAMES,
  TOOL_EVENTS,
} from '../../src/hooks/event-table.js';
import { deny, HookEngine, hookEventSchemas, type HookPayload } from '../../src/index.js';

const session = {
  sessionId: 's1',
  transcriptPath: '/tmp/t.jsonl',
  cwd: '/tmp',
  promptId: 'p1',
  mode: 'default',
  effort: 'medium',
};
const example = (event: (typeof HOOK_EVENT_NAMES)[number]) =>
  eventSpec(event).example({
    toolName: 'Bash',
    toolInput: { command: 'ls' },
    response: undefined,
    prompt: 'hi',
    projectDir: '/tmp',
    toolUseId: 'toolu_1',
    agentId: 'a1',
  });

describe('the event table', () => {
  it('is the list of events, its schemas and its derived lists', () => {
    expect(HOOK_EVENT_NAMES).toEqual(Object.keys(EVENT_TABLE));
    expect(Object.keys(hookEventSchemas)).toEqual([...HOOK_EVENT_NAMES]);
    expect([...TOOL_EVENTS]).toEqual([
      'PreToolUse',
      'PermissionRequest',
      'PermissionDenied',
      'PermissionDecision',
      'PostToolUse',
      'PostToolUseFailure',
    ]);
    expect([...GATE_EVENTS]).toEqual([
      'UserPromptSubmit',
      'UserPromptExpansion',
      'PreToolUse',
      'PermissionRequest',
    ]);
    for (const event of GATE_EVENTS) expect(FAIL_CLOSED_EVENTS.has(event)).toBe(true);
    for (const event of HOOK_EVENT_NAMES)
      expect(eventSpec(event).acceptsIf).toBe(eventSpec(event).matchField === 'tool_name');
  });

  it('builds, for every event, a payload its own input schema accepts (what `hooks test` sends)', () => {
    for (const event of HOOK_EVENT_NAMES) {
      const payload = buildPayload(event, session, example(event) as HookPayload<typeof event>);
      const checked = eventSpec(event).input.safeParse(payload);
      expect(checked.success ? [] : checked.error.issues, event).toEqual([]);
      expect('permission_mode' in payload, event).toBe('permission_mode' in eventSpec(event).input.shape);
    }
  });
});

describe('fire', () => {
  it('tests matchers against the field the table names and returns the merged decision', async () => {
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'Read' }, () => deny('not this one'));
    hooks.on('PreToolUse', { matcher: 'Bash' }, () => deny('no shell'));
    const payload = buildPayload('PreToolUse', session, example('PreToolUse') as HookPayload<'PreToolUse'>);
    const result = await hooks.fire('PreToolUse', payload);
    expect(result).toMatchObject({ decision: 'deny', reason: 'no shell', shortCircuited: true });
    expect(result.outcomes).toHaveLength(1);
  });

  it('gives an observer event its common result, with every outcome', async () => {
    const hooks = new HookEngine();
    hooks.on('Notification', () => ({ systemMessage: 'pinged' }));
    hooks.on('Notification', { matcher: 'idle_prompt' }, () => ({ systemMessage: 'not for this type' }));
    const result = await hooks.fire(
      'Notification',
      buildPayload('Notification', session, { message: 'm', notification_type: 'permission_prompt' }),
    );
    expect(result).toMatchObject({ systemMessages: ['pinged'], contexts: [] });
    expect(result.outcomes).toHaveLength(1);
  });
});
