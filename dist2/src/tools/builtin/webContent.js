"use strict";
// WebFetch's page text: HTML turned into Markdown-like text (headings, links, lists, code, tables
// as rows), scripts, styles and frames dropped, entities decoded. Small on purpose: the text goes
// to a model, not to a renderer. Pure.
Object.defineProperty(exports, "__esModule", { value: true });
exports.HTML_CONVERT_MAX_CHARS = void 0;
exports.decodeEntities = decodeEntities;
exports.htmlToText = htmlToText;
exports.isTextContentType = isTextContentType;
/** Above this many characters the HTML is cut before conversion (as the reference: 1 MiB). */
exports.HTML_CONVERT_MAX_CHARS = 1024 * 1024;
const DROPPED = ['script', 'style', 'noscript', 'iframe', 'template', 'svg', 'head'];
const NAMED = {
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
function decodeEntities(s) {
    return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
        if (e[0] === '#') {
            const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
            return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
        }
        return NAMED[e.toLowerCase()] ?? m;
    });
}
function attr(tag, name) {
    const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
    return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}
/** HTML → Markdown-like text. */
function htmlToText(html) {
    let s = html.length > exports.HTML_CONVERT_MAX_CHARS ? html.slice(0, exports.HTML_CONVERT_MAX_CHARS) : html;
    s = s.replace(/<!--[\s\S]*?-->/g, '');
    for (const tag of DROPPED)
        s = s.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, 'gi'), '');
    // Preformatted blocks keep their text as it is (fenced), protected from the rest.
    const pre = [];
    s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_m, body) => {
        pre.push(decodeEntities(body.replace(/<[^>]+>/g, '')).replace(/\n+$/, ''));
        return `\n\n\u0000${pre.length - 1}\u0000\n\n`;
    });
    s = s.replace(/\s+/g, ' ');
    s = s.replace(/<h([1-6])\b[^>]*>/gi, (_m, n) => `\n\n${'#'.repeat(Number(n))} `);
    s = s.replace(/<\/h[1-6]\s*>/gi, '\n\n');
    s = s.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs, text) => {
        const href = attr(` ${attrs}`, 'href');
        const label = text.replace(/<[^>]+>/g, '').trim();
        if (!href || href.startsWith('javascript:'))
            return label;
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
    s = s.replace(/<\/?(p|div|section|article|main|header|footer|nav|aside|ul|ol|table|tr|blockquote|dl|dt|dd|figure|form)\b[^>]*>/gi, '\n\n');
    s = s.replace(/<hr\b[^>]*>/gi, '\n\n---\n\n');
    s = s.replace(/<[^>]+>/g, '');
    s = decodeEntities(s);
    s = s
        .split('\n')
        .map((l) => l.replace(/[ \t]+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
    s = s.replace(/\u0000(\d+)\u0000/g, (_m, i) => `\`\`\`\n${pre[Number(i)] ?? ''}\n\`\`\``);
    if (html.length > exports.HTML_CONVERT_MAX_CHARS)
        s += '\n\n[The page was cut before conversion: it is longer than 1 MiB.]';
    return s;
}
/** Does a content type carry text (shown) rather than binary data (named only)? */
function isTextContentType(contentType) {
    const t = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    if (t === '')
        return true;
    return (t.startsWith('text/') ||
        t === 'application/json' ||
        t.endsWith('+json') ||
        t === 'application/xml' ||
        t.endsWith('+xml') ||
        t.startsWith('application/javascript') ||
        t === 'application/x-www-form-urlencoded');
}
//# sourceMappingURL=webContent.js.map