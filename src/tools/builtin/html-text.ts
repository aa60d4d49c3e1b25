/**
 * HTML to readable text for WebFetch: what a person would read on the page, with headings, list
 * items, links and paragraphs kept as light Markdown. Not a browser: no script runs, no style
 * applies, nothing is fetched. Linear in the input (one pass of regular expressions without
 * backtracking traps), so a hostile page costs at most its size.
 */

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  times: '×',
  euro: '€',
  pound: '£',
  deg: '°',
};

// Elements whose content is never text a reader sees.
const HIDDEN: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'object',
  'title',
]);
const BLOCK: ReadonlySet<string> = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'pre',
  'hr',
  'address',
  'details',
  'summary',
]);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>|<!--[\s\S]*?-->|<[!?][^>]*>/g;

/** Decodes `&amp;`, `&#39;`, `&#x27;` and the common named entities; an unknown one stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\uFFFD';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The text of an HTML document: hidden elements (script, style, head…), comments and doctypes
 * dropped; `<h1>`…`<h6>` as `#`…`######` lines, `<li>` as `- ` lines, `<a href>` as `[text](href)`,
 * `<br>` and block elements as line breaks; whitespace collapsed, at most one blank line in a row;
 * entities decoded last, so a decoded `<` never starts a tag. One pass over the tags, so the cost
 * is linear in the page's size whatever its markup (an unclosed `<script>` hides the rest).
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let hidden: string | undefined;
  let link: { href: string; start: number } | undefined;
  let last = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    if (hidden === undefined) out.push(html.slice(last, match.index));
    last = TAG.lastIndex;
    const name = match[2]?.toLowerCase();
    if (name === undefined) continue; // a comment or a doctype
    const closing = match[1] === '/';
    if (hidden !== undefined) {
      if (closing && name === hidden) hidden = undefined;
      continue;
    }
    if (HIDDEN.has(name)) {
      if (!closing && !match[3]!.trimEnd().endsWith('/')) hidden = name;
    } else if (/^h[1-6]$/.test(name)) out.push(closing ? '\n\n' : `\n\n${'#'.repeat(Number(name[1]))} `);
    else if (name === 'a') {
      if (!closing) link = { href: attribute(match[3]!, 'href') ?? '', start: out.length };
      else if (link !== undefined) {
        const label = out.splice(link.start).join('').trim();
        if (label !== '')
          out.push(
            link.href === '' || link.href.startsWith('#') || /^\s*javascript:/i.test(link.href)
              ? label
              : `[${label}](${link.href})`,
          );
        link = undefined;
      }
    } else if (name === 'li') out.push(closing ? '' : '\n- ');
    else if (name === 'br') out.push('\n');
    else if (name === 'td' || name === 'th') out.push(' ');
    else if (BLOCK.has(name)) out.push('\n\n');
  }
  if (hidden === undefined) out.push(html.slice(last));
  const text = out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return decodeEntities(text);
}

/** The value of attribute `name` in a tag's attribute text, quoted or bare. */
function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(
    attributes,
  );
  return match === null ? undefined : decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}
