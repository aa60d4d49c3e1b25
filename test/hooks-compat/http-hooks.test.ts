import { afterEach, describe, expect, it } from 'vitest';
import { compatRun, hookServer, settingsHooks, tempProject, text, toolResults, toolUse } from './support.js';

// `type: "http"` (hook-type-http): POST of the stdin JSON, a 2xx JSON
// body is the output, non-2xx and non-JSON bodies are non-blocking, `onFailure`, bounded retries.

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function server(...args: Parameters<typeof hookServer>) {
  const started = await hookServer(...args);
  servers.push(started);
  return started;
}

const writeCall = [[toolUse('toolu_01', 'Bash', { command: 'echo ran > ran.txt' })], [text('done')]];
const httpHook = (url: string, extra: Record<string, unknown> = {}) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url, ...extra }] }] },
});

describe('http hooks', () => {
  it('POST the event JSON; a 2xx JSON deny refuses the call with the reference’s text', async () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'HTTP-SAYS-NO',
      },
    };
    const hook = await server(() => ({ status: 200, body: deny }));
    const dir = tempProject();
    const { hooks } = settingsHooks(
      { ...httpHook(`${hook.url}/hook/pre`), permissions: { allow: ['Bash'] } },
      dir,
    );
    const { result } = await compatRun(writeCall, {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      content: 'PreToolUse:Bash hook error: HTTP-SAYS-NO',
    });
    expect(hook.seen).toHaveLength(1);
    expect(hook.seen[0]).toMatchObject({
      method: 'POST',
      path: '/hook/pre',
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
    });
    expect(JSON.parse(hook.seen[0]!.body)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo ran > ran.txt' },
      tool_use_id: 'toolu_01',
      cwd: dir,
    });
  });

  it('an HTTP 500 and a text/plain 2xx body are non-blocking and reach no one', async () => {
    for (const answer of [
      { status: 500, body: 'boom' },
      { status: 200, body: 'PLAIN-TEXT-BODY' },
    ]) {
      const hook = await server(() => answer);
      const dir = tempProject();
      const { hooks } = settingsHooks(httpHook(hook.url), dir);
      const { result, model, events } = await compatRun(writeCall, {
        projectDir: dir,
        hooks,
        permissions: { rules: { allow: ['Bash'] } },
      });
      expect(toolResults(result.messages)[0]).toMatchObject({ isError: false });
      expect(JSON.stringify(model.requests.map((request) => request.messages))).not.toMatch(
        /boom|PLAIN-TEXT-BODY/,
      );
      const outcome = events.find((event) => event.type === 'hook_outcome' && event.event === 'PreToolUse');
      expect(outcome).toMatchObject({
        outcome: { status: answer.status === 500 ? 'failed' : 'ok', failClosed: false },
      });
    }
  });

  it('onFailure "block" makes a non-2xx answer refuse the call', async () => {
    const hook = await server(() => ({ status: 503, body: 'down' }));
    const dir = tempProject();
    const { hooks } = settingsHooks(httpHook(hook.url, { onFailure: 'block' }), dir);
    const { result } = await compatRun(writeCall, {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(toolResults(result.messages)[0]!.content).toBe(
      `PreToolUse:Bash hook error: [${hook.url}]: failed; blocking because onFailure is "block"\nHTTP 503: down`,
    );
  });

  it('headers resolve $VAR and ${VAR} only for names in allowedEnvVars; others become empty', async () => {
    process.env['HOOKLOOP_TEST_TOKEN'] = 'secret-1';
    process.env['HOOKLOOP_TEST_OTHER'] = 'must-not-leak';
    try {
      const hook = await server(() => ({ status: 200, body: {} }));
      const dir = tempProject();
      const headers = {
        Authorization: 'Bearer $HOOKLOOP_TEST_TOKEN',
        'X-Braced': '${HOOKLOOP_TEST_TOKEN}-x',
        'X-Other': '[$HOOKLOOP_TEST_OTHER]',
      };
      const { hooks } = settingsHooks(
        httpHook(hook.url, { headers, allowedEnvVars: ['HOOKLOOP_TEST_TOKEN'] }),
        dir,
      );
      await compatRun(writeCall, { projectDir: dir, hooks, permissions: { rules: { allow: ['Bash'] } } });
      expect(hook.seen[0]!.headers).toMatchObject({
        authorization: 'Bearer secret-1',
        'x-braced': 'secret-1-x',
        'x-other': '[]',
      });
    } finally {
      delete process.env['HOOKLOOP_TEST_TOKEN'];
      delete process.env['HOOKLOOP_TEST_OTHER'];
    }
  });

  it('a hook slower than its timeout is abandoned: `timeout`, non-blocking, the tool runs', async () => {
    const hook = await server(() => ({
      status: 200,
      body: { decision: 'block', reason: 'too late' },
      delayMs: 3000,
    }));
    const dir = tempProject();
    const { hooks } = settingsHooks(httpHook(hook.url, { timeout: 0.3 }), dir);
    const started = Date.now();
    const { result, events } = await compatRun(writeCall, {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(toolResults(result.messages)[0]!.isError).toBe(false);
    expect(events.find((event) => event.type === 'hook_outcome')).toMatchObject({
      outcome: { status: 'timeout', failClosed: false },
    });
  });

  it('retries a 5xx or a refused connection at most `retries` times, never a 4xx', async () => {
    const flaky = await server((_request, n) =>
      n < 3
        ? { status: 502, body: 'bad gateway' }
        : { status: 200, body: { decision: 'block', reason: 'third time' } },
    );
    const dir = tempProject();
    const { hooks } = settingsHooks(httpHook(flaky.url, { retries: 2 }), dir);
    const { result } = await compatRun(writeCall, {
      projectDir: dir,
      hooks,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(flaky.seen).toHaveLength(3);
    expect(toolResults(result.messages)[0]!.content).toBe('PreToolUse:Bash hook error: third time');

    const notFound = await server(() => ({ status: 404, body: 'no' }));
    const other = tempProject();
    const { hooks: once } = settingsHooks(httpHook(notFound.url, { retries: 5 }), other);
    await compatRun(writeCall, {
      projectDir: other,
      hooks: once,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(notFound.seen).toHaveLength(1);

    const bounded = await server(() => ({ status: 500 }));
    const third = tempProject();
    const { hooks: twice } = settingsHooks(httpHook(bounded.url, { retries: 1 }), third);
    const { events } = await compatRun(writeCall, {
      projectDir: third,
      hooks: twice,
      permissions: { rules: { allow: ['Bash'] } },
    });
    expect(bounded.seen).toHaveLength(2);
    expect(events.find((event) => event.type === 'hook_outcome')).toMatchObject({
      outcome: { status: 'failed', error: 'HTTP 500 (after 2 attempts)' },
    });
  });

  it('leaves a handler with retries outside 0..5 out when the settings load, with one warning naming the field', () => {
    const { hooks, warnings } = settingsHooks(
      httpHook('http://127.0.0.1:9/x', { retries: 9 }),
      tempProject(),
    );
    expect(hooks.list()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/retries: expected a whole number from 0 to 5, got 9; ignored$/);
  });
});
