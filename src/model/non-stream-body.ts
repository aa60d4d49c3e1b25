import { ProviderRequestError } from './provider-errors.js';

// What of a non-stream body the error shows: enough to recognise an error object or an HTML page.
const SHOWN_CHARACTERS = 200;

/**
 * A copy of a streaming request's response whose content-type is not `text/event-stream`, kept
 * to show what the server sent should no stream event come out of it (`200 application/json`, an
 * HTML page from a proxy); undefined for an event stream, which is read once as usual.
 */
export function copyUnlessEventStream(response: Response): Response | undefined {
  const type = response.headers.get('content-type') ?? '';
  return /^text\/event-stream\b/i.test(type) ? undefined : response.clone();
}

/**
 * After a stream has ended: when it yielded no event (`events` is 0) and `copy` holds its
 * response (see `copyUnlessEventStream`), the server did not stream at all, and the same request
 * would get the same answer. Otherwise releases the copy and returns.
 * @throws ProviderRequestError (`stream`, not retried) naming the content-type and the start of the body:
 *   `API Error: the server sent a non-stream body to a streaming request (content-type application/json): {"id":…`.
 */
export async function rejectNonStreamBody(
  provider: string,
  copy: Response | undefined,
  events: number,
): Promise<void> {
  if (copy === undefined) return;
  if (events > 0) {
    await copy.body?.cancel().catch(() => undefined);
    return;
  }
  const text = await copy.text().catch(() => '');
  const flat = text.replace(/\s+/g, ' ').trim();
  const shown =
    flat === ''
      ? '(empty body)'
      : flat.length > SHOWN_CHARACTERS
        ? `${flat.slice(0, SHOWN_CHARACTERS - 1)}…`
        : flat;
  const type = copy.headers.get('content-type') || 'none';
  throw new ProviderRequestError(
    provider,
    `API Error: the server sent a non-stream body to a streaming request (content-type ${type}): ${shown}`,
    { kind: 'stream', retryable: false },
  );
}
