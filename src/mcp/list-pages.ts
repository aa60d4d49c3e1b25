/** One page of an MCP list (`tools/list`, `resources/list`, `prompts/list`…): its items and the next cursor. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

// A server that keeps answering a cursor would otherwise keep a session from starting.
const MAX_PAGES = 1000;

/**
 * Every item of a paginated MCP list: fetches pages, following `nextCursor`, until a page has none.
 * A cursor seen before ends the walk (a server that loops would otherwise never let go), and so
 * does a thousandth page.
 * @throws what `fetchPage` throws (the first failing page fails the list).
 */
export async function listAllPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}
