import { createInterface } from 'node:readline/promises';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/mcp-client.js';

type Property = { type?: string; title?: string; description?: string; enum?: unknown[] };

/**
 * Puts an MCP elicitation to the person at the terminal (interactive mode): the server's message,
 * then one question per field of its `requested_schema` (strings, numbers, integers, booleans,
 * enums). An empty answer to the first question declines; a closed input or an interrupt cancels.
 * Requests are asked one at a time.
 */
export function ttyElicitor(streams: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}): (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer> {
  let previous: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const answer = previous
      .then(() => askForm(streams, request, signal))
      .catch((): ElicitationAnswer => ({ action: 'cancel' }));
    previous = answer;
    return answer;
  };
}

async function askForm(
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  request: ElicitationRequest,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  if (request.mode !== 'form') {
    streams.output.write(
      `\nMCP server "${request.serverName}": ${request.message}\n${request.url ?? ''}\n(hookloop cannot open URL elicitations; declined)\n`,
    );
    return { action: 'decline' };
  }
  const lines = createInterface({ input: streams.input, output: streams.output });
  const closed = new Promise<'closed'>((resolve) => lines.once('close', () => resolve('closed')));
  try {
    streams.output.write(
      `\nMCP server "${request.serverName}" asks: ${request.message}\n(an empty first answer declines)\n`,
    );
    const properties = (request.requestedSchema?.['properties'] ?? {}) as Record<string, Property>;
    const content: Record<string, unknown> = {};
    let first = true;
    for (const [name, property] of Object.entries(properties)) {
      const hint = property.enum
        ? ` (${property.enum.map(String).join('/')})`
        : property.type && property.type !== 'string'
          ? ` (${property.type})`
          : '';
      const reply = await Promise.race([
        lines.question(`${property.title ?? name}${hint}: `, { signal }),
        closed,
      ]);
      if (reply === 'closed') return { action: 'cancel' };
      if (first && reply.trim() === '') return { action: 'decline' };
      first = false;
      content[name] = convert(reply.trim(), property.type);
    }
    return { action: 'accept', content };
  } catch {
    return { action: 'cancel' }; // interrupted
  } finally {
    lines.close();
  }
}

function convert(reply: string, type: string | undefined): unknown {
  if (type === 'number' || type === 'integer') return Number(reply);
  if (type === 'boolean') return /^(y|yes|true|1)$/i.test(reply);
  return reply;
}
