// WebFetch's page text: HTML turned into Markdown-like text (headings, links, lists, code, tables
// as rows), scripts, styles and frames dropped, entities decoded. Small on purpose: the text goes
// to a model, not to a renderer. Pure.

/** Above this many characters the HTML is cut before conversion (as the reference: 1 MiB). */
export const HTML_CONVERT_MAX_CHARS = 1024 * 1024;

const DROPPED = ['script', 'style', 'noscript', 'iframe', 'template', 'svg', 'head'];

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  copy: '©',
  reg: '®',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}

/** HTML → Markdown-like text. */
export function htmlToText(html: string): string {
  let s = html.length > HTML_CONVERT_MAX_CHARS ? html.slice(0, HTML_CONVERT_MAX_CHARS) : html;
  s = s.replace(/<!--[\s\S]*?-->/g, '');
  for (const tag of DROPPED) s = s.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, 'gi'), '');
  // Preformatted blocks keep their text as it is (fenced), protected from the rest.
  const pre: string[] = [];
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_m, body: string) => {
    pre.push(decodeEntities(body.replace(/<[^>]+>/g, '')).replace(/\n+$/, ''));
    return `\n\n\u0000${pre.length - 1}\u0000\n\n`;
  });
  s = s.replace(/\s+/g, ' ');
  s = s.replace(/<h([1-6])\b[^>]*>/gi, (_m, n: string) => `\n\n${'#'.repeat(Number(n))} `);
  s = s.replace(/<\/h[1-6]\s*>/gi, '\n\n');
  s = s.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs: string, text: string) => {
    const href = attr(` ${attrs}`, 'href');
    const label = text.replace(/<[^>]+>/g, '').trim();
    if (!href || href.startsWith('javascript:')) return label;
    return label ? `[${label}](${href})` : `<${href}>`;
  });
  s = s.replace(/<img\b[^>]*>/gi, (tag) => {
    const alt = attr(tag, 'alt');
    return alt ? `![${alt}]` : '';
  });
  s = s.replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '**$2**');
  s = s.replace(/<(em|i)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '_$2_');
  s = s.replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, '`$1`');
  s = s.replace(/<li\b[^>]*>/gi, '\n- ');
  s = s.replace(/<\/(td|th)\s*>/gi, ' | ');
  s = s.replace(/<br\s*\/?>/gi, '\n');
  s = s.replace(
    /<\/?(p|div|section|article|main|header|footer|nav|aside|ul|ol|table|tr|blockquote|dl|dt|dd|figure|form)\b[^>]*>/gi,
    '\n\n',
  );
  s = s.replace(/<hr\b[^>]*>/gi, '\n\n---\n\n');
  s = s.replace(/<[^>]+>/g, '');
  s = decodeEntities(s);
  s = s
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  s = s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => `\`\`\`\n${pre[Number(i)] ?? ''}\n\`\`\``);
  if (html.length > HTML_CONVERT_MAX_CHARS) s += '\n\n[The page was cut before conversion: it is longer than 1 MiB.]';
  return s;
}

/** Does a content type carry text (shown) rather than binary data (named only)? */
export function isTextContentType(contentType: string): boolean {
  const t = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (t === '') return true;
  return (
    t.startsWith('text/') ||
    t === 'application/json' ||
    t.endsWith('+json') ||
    t === 'application/xml' ||
    t.endsWith('+xml') ||
    t.startsWith('application/javascript') ||
    t === 'application/x-www-form-urlencoded'
  );
}
