"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.isDangerousEnvName = isDangerousEnvName;
exports.matchCommandPattern = matchCommandPattern;
exports.isWriteRedirect = isWriteRedirect;
exports.unallowableReason = unallowableReason;
exports.stripAllowWrappers = stripAllowWrappers;
exports.matchShellRule = matchShellRule;
// Bash permission rules on the parsed command line (shellAnalysis.ts).
//  - allow: the analysis must be certain, and every simple command must match after stripping the
//    wrappers timeout/time/nice/nohup; no substitution, no dynamic or glob word, no dangerous
//    environment assignment, no redirection that writes a file.
//  - deny/ask: conservative. A rule matches when ANY simple command found anywhere matches (in a
//    compound, a subshell, $(…), a here-document, after any wrapper — sudo, env, xargs, exec,
//    command, builtin, find -exec…, inside `sh -c '…'` and `eval '…'`), when a command's name is
//    not known statically, and, for a command the parser could not read with certainty, when a
//    crude split of the text on every shell operator finds a match.
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const shellAnalysis_1 = require("./shellAnalysis");
/** Wrappers whose remaining words are a command (stripped for every rule kind). */
const ALLOW_WRAPPERS = new Set(['timeout', 'time', 'nice', 'nohup']);
/**
 * Commands that run another command given in their arguments. For deny/ask rules, every suffix of
 * their arguments is tried as a command, so no option spelling hides the command.
 */
const DENY_WRAPPERS = new Set([
    'timeout',
    'time',
    'nice',
    'nohup',
    'env',
    'command',
    'builtin',
    'exec',
    'xargs',
    'sudo',
    'doas',
    'su',
    'stdbuf',
    'ionice',
    'setsid',
    'chrt',
    'taskset',
    'flock',
    'unbuffer',
    'nsenter',
    'chroot',
    'runuser',
    'watch',
    'parallel',
    'caffeinate',
    'systemd-run',
    'strace',
    'ltrace',
    'gdb',
    'valgrind',
    'busybox',
    'then',
    'do',
    'else',
]);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const MAX_DEPTH = 6;
/** Environment variables whose assignment changes what a command runs: a rule never allows them. */
function isDangerousEnvName(name) {
    const n = name.toUpperCase();
    return ([
        'PATH',
        'IFS',
        'ENV',
        'BASH_ENV',
        'SHELLOPTS',
        'BASHOPTS',
        'PS4',
        'PROMPT_COMMAND',
        'HOME',
        'CDPATH',
        'GLOBIGNORE',
        'NODE_OPTIONS',
        'NODE_PATH',
        'PYTHONPATH',
        'PYTHONSTARTUP',
        'PYTHONHOME',
        'PERL5OPT',
        'PERL5LIB',
        'PERLLIB',
        'RUBYOPT',
        'RUBYLIB',
        'EDITOR',
        'VISUAL',
        'PAGER',
        'BROWSER',
        'SHELL',
        'TMPDIR',
        'JAVA_TOOL_OPTIONS',
        '_JAVA_OPTIONS',
        'CLASSPATH',
        'GOFLAGS',
        'CARGO_HOME',
        'RUSTC_WRAPPER',
        'MAKEFLAGS',
        'ZDOTDIR',
        'LESSOPEN',
        'MANPAGER',
    ].includes(n) || /^(LD_|DYLD_|GIT_|BASH_FUNC_|NPM_CONFIG_|YARN_|PNPM_|DOCKER_|SSH_)/.test(n));
}
function normalizeSpaces(s) {
    return s.trim().replace(/\s+/g, ' ');
}
function escapeRegex(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
/**
 * Matches one simple command's text against a Bash rule spec:
 * `prefix:*` → the command is `prefix` or starts with `prefix ` (a word boundary: `ls:*` does not
 * match `lsof`); a spec with `*` → glob over the whole text (`*` matches anything, spaces
 * included; a trailing ` *` also matches the bare command; `\*` is a literal star); otherwise
 * exact, whitespace-normalised.
 */
function matchCommandPattern(spec, text) {
    const t = normalizeSpaces(text);
    const p = normalizeSpaces(spec);
    if (p.endsWith(':*')) {
        const prefix = p.slice(0, -2).trimEnd();
        return t === prefix || t.startsWith(`${prefix} `);
    }
    if (/(^|[^\\])\*/.test(p)) {
        let re = '';
        for (let k = 0; k < p.length; k++) {
            const ch = p[k];
            if (ch === '\\' && p[k + 1] === '*') {
                re += '\\*';
                k++;
            }
            else if (ch === '*')
                re += '.*';
            else
                re += escapeRegex(ch);
        }
        if (new RegExp(`^${re}$`, 's').test(t))
            return true;
        if (p.endsWith(' *') && !p.endsWith('\\ *'))
            return matchCommandPattern(p.slice(0, -2), t);
        return false;
    }
    return t === p.replace(/\\\*/g, '*');
}
/** A redirection that writes a file (not `2>&1`, not `>&-`, not `/dev/null`). */
function isWriteRedirect(r) {
    if (['<', '<<', '<<-', '<<<'].includes(r.op))
        return false;
    if (/^[<>]&-$/.test(r.op))
        return false;
    const values = r.target?.values;
    const target = values?.length === 1 && !r.target.glob ? values[0] : undefined;
    if ((r.op === '>&' || r.op === '<&') && target !== undefined && /^(\d+|-)$/.test(target))
        return false;
    if (target === '/dev/null' && ['>', '>>', '&>', '&>>', '>|'].includes(r.op))
        return false;
    return true;
}
/** Is the word's value known statically, with no glob? */
function isStatic(w) {
    return w.values !== undefined && !w.glob;
}
/** Static words as bash passes them (brace expansion can make several of one). */
function staticTokens(words) {
    const out = [];
    for (const w of words) {
        if (!isStatic(w))
            return undefined;
        out.push(...w.values);
    }
    return out;
}
/** Why an allow rule can never match this command, or undefined. */
function unallowableReason(cmd) {
    if (cmd.words.length === 0)
        return 'no command';
    if (cmd.nested)
        return 'command substitution';
    if (cmd.declaration)
        return 'declaration';
    if (cmd.assignments.some((a) => isDangerousEnvName(a.name)))
        return 'dangerous environment assignment';
    if (cmd.assignments.some((a) => a.value !== undefined && !isStatic(a.value)))
        return 'assignment of a value not known in advance';
    if (!cmd.words.every(isStatic))
        return 'a word whose value is not known in advance';
    return undefined;
}
/** Strips timeout/time/nice/nohup (with their options) for allow rules; undefined if unsure. */
function stripAllowWrappers(tokens) {
    let t = tokens;
    for (let guard = 0; guard < 16; guard++) {
        const w = t[0];
        if (w === undefined || !ALLOW_WRAPPERS.has(w))
            return t;
        let k = 1;
        if (w === 'time') {
            while (t[k] === '-p' || t[k] === '--')
                k++;
        }
        else if (w === 'nohup') {
            if (t[k] === '--')
                k++;
        }
        else if (w === 'nice') {
            if (t[k] === '-n' || t[k] === '--adjustment')
                k += 2;
            else if (/^(-n?[+-]?\d+|--adjustment=[+-]?\d+)$/.test(t[k] ?? ''))
                k++;
            if (t[k] === '--')
                k++;
        }
        else {
            for (;;) {
                const a = t[k] ?? '';
                if (a === '-s' || a === '--signal' || a === '-k' || a === '--kill-after')
                    k += 2;
                else if (/^(--signal=|--kill-after=|-s.|-k.)/.test(a) ||
                    ['--preserve-status', '--foreground', '-v', '--verbose'].includes(a))
                    k++;
                else
                    break;
            }
            if (t[k] === '--')
                k++;
            if (!/^\d+(\.\d+)?[smhd]?$/.test(t[k] ?? ''))
                return undefined;
            k++;
        }
        if (k >= t.length)
            return undefined;
        t = t.slice(k);
    }
    return undefined;
}
/** Does an allow rule match the command line? Needs a certain analysis (see the file header). */
function allowMatches(spec, a) {
    if (!a.certain || a.commands.length === 0)
        return false;
    if (a.redirects.some(isWriteRedirect))
        return false;
    return a.commands.every((cmd) => {
        if (unallowableReason(cmd) !== undefined)
            return false;
        const stripped = stripAllowWrappers(staticTokens(cmd.words));
        return stripped !== undefined && matchCommandPattern(spec, stripped.join(' '));
    });
}
/** Could a command with these words match the spec, whatever its unknown words turn out to be? */
function wordsCouldMatch(scan, words) {
    const tokens = [];
    for (const w of words) {
        if (isStatic(w))
            tokens.push(...w.values);
        else
            tokens.push(null);
    }
    const texts = [];
    const firstUnknown = tokens.indexOf(null);
    if (firstUnknown === 0)
        return true; // the command name is not known: it may be anything
    if (firstUnknown > 0) {
        const prefix = tokens.slice(0, firstUnknown).join(' ');
        const literal = normalizeSpaces(scan.spec)
            .replace(/:\*$/, '')
            .split(/(?<!\\)\*/)[0]
            .trimEnd();
        // The unknown words could complete the rule's literal part (whole words: `rmdir $x` is not `rm`).
        if (literal === prefix || literal.startsWith(`${prefix} `) || prefix.startsWith(`${literal} `))
            return true;
        texts.push(words.map((w) => w.raw).join(' '));
    }
    else {
        texts.push(tokens.join(' '));
        const name = tokens[0];
        if (name.includes('/'))
            texts.push([path.basename(name), ...tokens.slice(1)].join(' '));
    }
    texts.push(words.map((w) => w.raw).join(' '));
    return texts.some((t) => matchCommandPattern(scan.spec, t));
}
function commandMatchesDeny(scan, words, seen = 0) {
    if (words.length === 0 || seen > 64)
        return false;
    if (wordsCouldMatch(scan, words))
        return true;
    const name = words[0].values?.[0];
    const base = name === undefined ? undefined : path.basename(name);
    if (base === undefined)
        return false;
    const rest = words.slice(1);
    if (DENY_WRAPPERS.has(base)) {
        for (let k = 0; k < rest.length; k++)
            if (commandMatchesDeny(scan, rest.slice(k), seen + 1))
                return true;
    }
    if (base === 'find') {
        const idx = rest.findIndex((w) => ['-exec', '-execdir', '-ok', '-okdir'].includes(w.values?.[0] ?? ''));
        if (idx >= 0) {
            for (let k = idx + 1; k < rest.length; k++) {
                if (['-exec', '-execdir', '-ok', '-okdir'].includes(rest[k].values?.[0] ?? ''))
                    continue;
                if (commandMatchesDeny(scan, rest.slice(k), seen + 1))
                    return true;
            }
        }
    }
    // Strings run as shell code: sh -c '…', eval '…', su -c '…', env -S '…', watch '…'.
    const code = [];
    if (SHELLS.has(base) || base === 'su' || base === 'flock' || base === 'script') {
        rest.forEach((w, k) => {
            const v = w.values?.[0] ?? '';
            if (/^-[A-Za-z]*c[A-Za-z]*$/.test(v) || v === '--command')
                code.push(rest.slice(k + 1, k + 2));
            if (v.startsWith('--command='))
                code.push([{ ...w, values: [v.slice(10)] }]);
        });
        if (SHELLS.has(base) && code.length === 0) {
            const script = rest.find((w) => !(w.values?.[0] ?? '-').startsWith('-'));
            if (script)
                code.push([scriptWord(scan, script)]);
            else if (rest.some((w) => !isStatic(w)))
                return true;
        }
    }
    if (base === 'eval' || base === 'watch')
        code.push(rest);
    // awk programs run shell commands through system("…"), print | "…" and "…" | getline.
    if (/^[gmn]?awk$/.test(base)) {
        for (const w of rest) {
            const prog = w.values?.join(' ');
            if (prog === undefined) {
                if (!isStatic(w))
                    return true;
                continue;
            }
            const literal = /system\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)|\|&?\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline/g;
            for (const m of prog.matchAll(literal))
                code.push([{ raw: m[0], values: [(m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1')], glob: false }]);
            // A command built at run time (system(cmd), print | cmd): it may be anything.
            if (/system\s*\(\s*[^"\s]|(?<!\|)\|(?!\|)&?\s*[^"\s|&]|[^"\s]\s*\|&?\s*getline/.test(prog.replace(literal, '')))
                return true;
        }
    }
    // git -c key=value: values such as core.fsmonitor, core.pager, diff.external or `!alias` run programs.
    if (base === 'git') {
        rest.forEach((w, k) => {
            const v = w.values?.[0];
            const next = rest[k + 1];
            if ((v === '-c' || v === '--config-env') && next) {
                const kv = next.values?.[0];
                if (kv === undefined)
                    code.push([next]);
                else
                    code.push([{ ...next, values: [kv.slice(kv.indexOf('=') + 1).replace(/^!/, '')] }]);
            }
        });
    }
    if (base === 'source' || base === '.')
        code.push(rest[0] ? [scriptWord(scan, rest[0])] : []);
    if (base === 'env') {
        rest.forEach((w, k) => {
            const v = w.values?.[0] ?? '';
            if (/^-[A-Za-z]*S/.test(v))
                code.push(v.length > 2 && v.indexOf('S') < v.length - 1
                    ? [{ ...w, values: [v.slice(v.indexOf('S') + 1)] }]
                    : rest.slice(k + 1, k + 2));
            if (v.startsWith('--split-string'))
                code.push(v.includes('=') ? [{ ...w, values: [v.slice(v.indexOf('=') + 1)] }] : rest.slice(k + 1, k + 2));
        });
    }
    for (const ws of code) {
        if (ws.length === 0)
            continue;
        if (!ws.every(isStatic))
            return true; // code not known in advance
        const text = ws.map((w) => w.values.join(' ')).join(' ');
        if (scan.depth >= MAX_DEPTH || denyMatches({ ...scan, depth: scan.depth + 1 }, text))
            return true;
    }
    return false;
}
/** The contents of a script run by `bash FILE` / `source FILE`, as a word (dynamic if unreadable). */
function scriptWord(scan, w) {
    const file = w.values?.length === 1 && !w.glob ? w.values[0] : undefined;
    if (file !== undefined) {
        try {
            const abs = path.resolve(scan.cwd, file);
            const st = fs.statSync(abs);
            if (st.isFile() && st.size <= 1_000_000) {
                const text = fs.readFileSync(abs, 'utf8');
                return { raw: w.raw, values: [text], glob: false };
            }
        }
        catch {
            // unreadable: unknown code
        }
    }
    return { raw: w.raw, glob: false, dynamic: 'script file' };
}
/** Crude readings of a command line: split on every operator, quotes dropped, assignments skipped. */
function crudePieces(command) {
    const variants = new Set([
        command,
        command.replace(/\\\n/g, ''),
        command.replace(/['"\\]/g, ''),
        command.replace(/[{},]/g, ' '),
    ]);
    const out = [];
    for (const v of variants) {
        for (const piece of v.split(/&&|\|\||[;&|\n\r\v\f()`{}<>]|\$\(|\$\{|\s#/)) {
            const words = piece
                .trim()
                .split(/\s+/)
                .filter((x) => x !== '');
            while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[0]))
                words.shift();
            for (let k = 0; k < words.length; k++)
                out.push(words.slice(k).join(' '));
        }
    }
    return out;
}
function denyMatches(scan, command) {
    if (matchCommandPattern(scan.spec, command))
        return true;
    const a = (0, shellAnalysis_1.analyzeShell)(command, scan.home);
    if (a.commands.some((c) => commandMatchesDeny(scan, c.words)))
        return true;
    // Assigned values can be run as programs (GIT_EXTERNAL_DIFF=…, PAGER=…, GIT_CONFIG_VALUE_0=…).
    if (scan.depth < MAX_DEPTH) {
        for (const c of a.commands) {
            for (const asg of c.assignments) {
                const v = asg.value?.values?.join(' ');
                if (v && denyMatches({ ...scan, depth: scan.depth + 1 }, v.replace(/^!/, '')))
                    return true;
            }
        }
    }
    if (a.certain)
        return false;
    // Not read with certainty: any piece of the text that looks like a matching command counts.
    return crudePieces(command).some((p) => matchCommandPattern(scan.spec, p));
}
/** Does a Bash rule spec match a command line, for a rule of the given behavior? */
function matchShellRule(spec, command, behavior, env = {}) {
    const home = env.home ?? os.homedir();
    if (behavior === 'allow')
        return allowMatches(spec, (0, shellAnalysis_1.analyzeShell)(command, home));
    return denyMatches({ spec, cwd: env.cwd ?? process.cwd(), home, depth: 0 }, command);
}
//# sourceMappingURL=shell.js.map