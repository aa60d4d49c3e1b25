// A mock of the chat-completions API (POST .../chat/completions, streaming) that serves a
// conformance scenario's `model` turns (Anthropic content blocks) the way the conformance runner's
// mock-anthropic.mjs serves them: a request with tools takes the first unused eligible entry
// (`match`, `sticky`, `error`, `delay_ms` as there), a request without tools is answered "ok", and
// an exhausted script answers "done (script exhausted)". Text becomes `content`, tool_use blocks
// become `tool_calls` whose arguments are streamed in two pieces. Every request body is kept.
import http from 'node:http';
import { setTimeout } from 'node:timers';

/** Starts the mock on 127.0.0.1; resolves to { url, requests, close }. */
export function startChatMock({ model = [], port = 0 } = {}) {
  const used = new Array(model.length).fill(false);
  const requests = [];
  const pick = (hay) => {
    for (let index = 0; index < model.length; index++) {
      if (used[index]) continue;
      const entry = Array.isArray(model[index]) ? { content: model[index] } : model[index];
      if (entry.match !== undefined && !hay.includes(entry.match)) continue;
      if (!entry.sticky) used[index] = true;
      return entry;
    }
    return { content: [{ type: 'text', text: 'done (script exhausted)' }] };
  };
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = text ? JSON.parse(text) : {};
      requests.push(body);
      const isTurn = Array.isArray(body.tools) && body.tools.length > 0;
      const entry = isTurn
        ? pick(JSON.stringify(body.messages))
        : { content: [{ type: 'text', text: 'ok' }] };
      setTimeout(() => reply(entry, body, response), entry.delay_ms ?? 0);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function reply(entry, body, response) {
  if (entry.error) {
    const status = entry.error.status ?? 400;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        error: {
          message: entry.error.message ?? 'scripted error',
          type: entry.error.type ?? 'invalid_request_error',
          param: null,
          code: null,
        },
      }),
    );
    return;
  }
  const blocks = entry.content ?? [];
  const text = blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n\n');
  const calls = blocks.filter((block) => block.type === 'tool_use');
  const chunk = (delta, finish = null, extra = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(chunk({ role: 'assistant', content: text || null }));
  calls.forEach((call, index) => {
    const args = JSON.stringify(call.input ?? {});
    const half = Math.floor(args.length / 2);
    response.write(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: args.slice(0, half) },
          },
        ],
      }),
    );
    response.write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  response.write(
    chunk({}, entry.stop_reason === 'max_tokens' ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop'),
  );
  const usage = {
    prompt_tokens: entry.usage?.input_tokens ?? 10,
    completion_tokens: entry.usage?.output_tokens ?? 5,
  };
  response.write(
    `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}
