/**
 * A local mock of the Anthropic Messages API for the side-by-side rows (row 0): both agents talk to
 * it through ANTHROPIC_BASE_URL. Stateless, so retries and extra requests cannot shift the script:
 * a request with tools whose messages hold k tool results is answered with the (k+1)-th scripted
 * Bash call while k < `calls`, else with the text `done`; a request without tools (titles and other
 * side requests) gets the text `ok`. Streaming (SSE) and plain JSON, as the request asks.
 */
import http from 'node:http';

/** A running mock: its base URL and how to stop it. */
export interface MockMessages {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the mock on 127.0.0.1 (a free port); every turn asks for `command` through Bash, `calls` times. */
export function startMockMessages(calls: number, command: string): Promise<MockMessages> {
  let sequence = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = request.url ?? '';
      if (url.includes('count_tokens')) return json(response, { input_tokens: 100 });
      let parsed: { model?: string; stream?: boolean; tools?: unknown[]; messages?: { content: unknown }[] };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        response.writeHead(400).end();
        return;
      }
      if (
        request.method !== 'POST' ||
        !url.split('?')[0]!.endsWith('/v1/messages') ||
        !Array.isArray(parsed.messages)
      ) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const results = parsed.messages.reduce(
        (count, message) =>
          count +
          (Array.isArray(message.content)
            ? message.content.filter((block: { type?: string }) => block.type === 'tool_result').length
            : 0),
        0,
      );
      const turn = Array.isArray(parsed.tools) && parsed.tools.length > 0;
      const content =
        turn && results < calls
          ? [
              {
                type: 'tool_use',
                id: `toolu_bench_${results + 1}`,
                name: 'Bash',
                input: { command, description: 'bench' },
              },
            ]
          : [{ type: 'text', text: turn ? 'done' : 'ok' }];
      const message = {
        id: `msg_bench_${++sequence}`,
        type: 'message',
        role: 'assistant',
        model: parsed.model ?? 'claude-bench',
        content,
        stop_reason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      };
      if (!parsed.stream) return json(response, message);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (event: string, data: unknown) =>
        response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('message_start', {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'text', text: '' },
          });
          send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: (block as { text: string }).text },
          });
        } else {
          const call = block as { id: string; name: string; input: unknown };
          send('content_block_start', {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          });
          send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
          });
        }
        send('content_block_stop', { type: 'content_block_stop', index });
      });
      send('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      send('message_stop', { type: 'message_stop' });
      response.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function json(response: http.ServerResponse, value: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}
