"use strict";
// What one shell word becomes, computed statically the way bash does it: quote removal, ANSI-C
// `$'…'` decoding, brace expansion, tilde expansion and glob detection. Words are first turned
// into an "escaped form" (every quoted character backslash-escaped, unquoted text as written), so
// brace/tilde/glob processing only sees the characters bash would treat as special.
Object.defineProperty(exports, "__esModule", { value: true });
exports.escapeAll = escapeAll;
exports.unescapeForm = unescapeForm;
exports.hasUnescaped = hasUnescaped;
exports.doubleQuotedValue = doubleQuotedValue;
exports.decodeAnsiC = decodeAnsiC;
exports.expandBraceForm = expandBraceForm;
exports.wordFromForm = wordFromForm;
exports.dynamicWord = dynamicWord;
const MAX_BRACE_WORDS = 256;
/** Backslash-escapes every character that is not a plain ASCII letter or digit. */
function escapeAll(s) {
    return s.replace(/[^A-Za-z0-9]/gu, (c) => `\\${c}`);
}
/** Removes the escaping backslashes of an escaped form. */
function unescapeForm(s) {
    let out = '';
    for (let i = 0; i < s.length; i++) {
        const c = s[i];
        if (c === '\\' && i + 1 < s.length) {
            const cp = s.codePointAt(i + 1);
            const ch = String.fromCodePoint(cp);
            out += ch;
            i += ch.length;
            continue;
        }
        out += c;
    }
    return out;
}
/** Does the escaped form contain an unescaped character of `set`? */
function hasUnescaped(s, set) {
    for (let i = 0; i < s.length; i++) {
        if (s[i] === '\\') {
            i++;
            continue;
        }
        if (set.includes(s[i]))
            return true;
    }
    return false;
}
/** The contents of a double-quoted string (without its quotes), as bash reads them. */
function doubleQuotedValue(inner) {
    let out = '';
    for (let i = 0; i < inner.length; i++) {
        const c = inner[i];
        if (c === '\\' && i + 1 < inner.length) {
            const d = inner[i + 1];
            if (d === '\n') {
                i++;
                continue;
            }
            if ('$`"\\'.includes(d)) {
                out += d;
                i++;
                continue;
            }
        }
        out += c;
    }
    return out;
}
/** Decodes the inside of `$'…'` like bash (a NUL ends the string, as in bash). */
function decodeAnsiC(inner) {
    let out = '';
    const simple = {
        a: '\x07',
        b: '\b',
        e: '\x1b',
        E: '\x1b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
        v: '\v',
        '\\': '\\',
        "'": "'",
        '"': '"',
        '?': '?',
    };
    for (let i = 0; i < inner.length; i++) {
        const c = inner[i];
        if (c !== '\\' || i + 1 >= inner.length) {
            out += c;
            continue;
        }
        const d = inner[i + 1];
        if (d in simple) {
            out += simple[d];
            i++;
            continue;
        }
        let m;
        const rest = inner.slice(i + 1);
        if ((m = /^[0-7]{1,3}/.exec(rest))) {
            out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
            i += m[0].length;
        }
        else if ((m = /^x([0-9A-Fa-f]{1,2})/.exec(rest))) {
            out += String.fromCharCode(parseInt(m[1], 16));
            i += m[0].length;
        }
        else if ((m = /^u([0-9A-Fa-f]{1,4})/.exec(rest)) || (m = /^U([0-9A-Fa-f]{1,8})/.exec(rest))) {
            const cp = parseInt(m[1], 16);
            out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
            i += m[0].length;
        }
        else if (d === 'c' && i + 2 < inner.length) {
            out += String.fromCharCode(inner.charCodeAt(i + 2) & 0x1f);
            i += 2;
        }
        else {
            out += c;
        }
    }
    const nul = out.indexOf('\0');
    return nul >= 0 ? out.slice(0, nul) : out;
}
function sequence(inner) {
    const num = /^([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?$/.exec(inner);
    const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?$/.exec(inner);
    const m = num ?? chr;
    if (!m)
        return undefined;
    const from = num ? parseInt(m[1], 10) : m[1].charCodeAt(0);
    const to = num ? parseInt(m[2], 10) : m[2].charCodeAt(0);
    const step = Math.abs(m[3] ? parseInt(m[3], 10) : 1) || 1;
    if (Math.abs(to - from) / step > MAX_BRACE_WORDS)
        throw new Error('brace sequence too long');
    const out = [];
    const width = num && /^[+-]?0\d/.test(m[1]) ? m[1].replace(/^[+-]/, '').length : 0;
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
        out.push(num
            ? width
                ? String(Math.abs(v))
                    .padStart(width, '0')
                    .replace(/^/, v < 0 ? '-' : '')
                : String(v)
            : escapeAll(String.fromCharCode(v)));
    }
    return out;
}
/** Brace expansion of an escaped form; throws when it would give too many words. */
function expandBraceForm(s, budget = { left: MAX_BRACE_WORDS }) {
    for (let i = 0; i < s.length; i++) {
        if (s[i] === '\\') {
            i++;
            continue;
        }
        if (s[i] !== '{' || (i > 0 && s[i - 1] === '$' && (i < 2 || s[i - 2] !== '\\')))
            continue;
        let depth = 0;
        let close = -1;
        const commas = [];
        for (let j = i; j < s.length; j++) {
            if (s[j] === '\\') {
                j++;
                continue;
            }
            if (s[j] === '{')
                depth++;
            else if (s[j] === '}') {
                depth--;
                if (depth === 0) {
                    close = j;
                    break;
                }
            }
            else if (s[j] === ',' && depth === 1)
                commas.push(j);
        }
        if (close < 0)
            continue;
        let alts;
        if (commas.length > 0) {
            alts = [];
            let start = i + 1;
            for (const c of [...commas, close]) {
                alts.push(s.slice(start, c));
                start = c + 1;
            }
        }
        else {
            alts = sequence(s.slice(i + 1, close));
        }
        if (!alts)
            continue;
        const pre = s.slice(0, i);
        const post = s.slice(close + 1);
        const out = [];
        for (const a of alts) {
            for (const w of expandBraceForm(pre + a + post, budget)) {
                if (--budget.left < 0)
                    throw new Error('brace expansion gives too many words');
                out.push(w);
            }
        }
        return out;
    }
    return [s];
}
/**
 * Finishes a word from its escaped form: brace expansion, tilde expansion (`~` and `~/…` only;
 * `~user`, `~+`, `~-` are not known statically) and glob detection.
 */
function wordFromForm(raw, form, home) {
    let forms;
    try {
        forms = expandBraceForm(form);
    }
    catch (e) {
        return { raw, glob: false, dynamic: e.message };
    }
    const patterns = [];
    for (const f of forms) {
        if (f.startsWith('~')) {
            const slash = f.search(/(?<!\\)\//);
            const prefix = slash < 0 ? f : f.slice(0, slash);
            if (prefix !== '~')
                return { raw, glob: false, dynamic: `tilde expansion ${unescapeForm(prefix)}` };
            patterns.push(escapeAll(home) + (slash < 0 ? '' : f.slice(slash)));
        }
        else {
            patterns.push(f);
        }
    }
    const glob = patterns.some((p) => hasUnescaped(p, '*?['));
    return { raw, values: patterns.map(unescapeForm), patterns, glob };
}
function dynamicWord(raw, why) {
    return { raw, glob: false, dynamic: why };
}
//# sourceMappingURL=shellWords.js.map