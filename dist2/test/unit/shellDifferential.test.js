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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the shell analysis against bash itself. Generated command lines full of quoting, escapes,
// $'…', braces, comments, line continuations and operators are run by bash with every command
// replaced by a stand-in program that records its argv; for each line the analysis calls certain,
// every command bash really ran must be one the analysis found, with the same words. (This is how
// tree-sitter-bash's `cmd<newline>\next` misreading was found.)
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const bashParser_1 = require("../../src/permissions/bashParser");
const shellAnalysis_1 = require("../../src/permissions/shellAnalysis");
const NAMES = ['echo', 'ls', 'cat', 'grep', 'touch', 'x'];
let dir = '';
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, bashParser_1.loadShellParser)(), true);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shdiff-'));
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.mkdirSync(path.join(dir, 'home'));
    const rec = path.join(dir, 'rec.sh');
    fs.writeFileSync(rec, `#!/bin/bash\nr=$(printf '%s\\036' "\${0##*/}" "$@"); printf '%s\\035' "$r" >> "$RECLOG"\n`, {
        mode: 0o755,
    });
    for (const n of NAMES)
        fs.symlinkSync(rec, path.join(dir, 'bin', n));
});
(0, node_test_1.after)(() => fs.rmSync(dir, { recursive: true, force: true }));
function generate(count, seed) {
    let s = seed;
    const rnd = (n) => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return s % n;
    };
    const pick = (a) => a[rnd(a.length)];
    const names = [
        'echo',
        'ls',
        'cat',
        'grep',
        'x',
        'touch',
        'e"c"ho',
        "'ls'",
        '\\cat',
        'ec\\ho',
        "$'\\x65cho'",
        '{echo,a}',
    ];
    const args = [
        "'a b'",
        '"a\\"b"',
        'a\\ b',
        "$'\\x61'",
        "$'a\\'b'",
        '{a,b}',
        '{1..3}',
        '~',
        '~/x',
        'a#b',
        '\\#',
        '"#"',
        "'\\''",
        '\\\\',
        '"\\\\"',
        '"a\\$"',
        'a=b',
        '-x',
        '--y=z',
        "''",
        '""',
        'x"y"\'z\'',
        'a$',
        '"$"',
        "'$(x)'",
        '"\\`x\\`"',
        "{a,'b c'}",
        'a{,b}',
        '\\{a,b}',
        '{a\\,b}',
        'a,b',
        '[',
        ']',
        '"a\nb"',
        "'a\nb'",
        '=',
        '-',
        '--',
        '%',
        '!',
        'é',
        "$'\\u00e9'",
        "$'\\t'",
        '"\t"',
        '\\\t',
        '"\'"',
    ];
    const seps = ['\n\\', '\n \\\n', ' \\\n', ' ; ', ';', ' && ', '||', ' | ', '\n', ' & ', '|', '&&'];
    const wraps = [
        (c) => c,
        (c) => `( ${c} )`,
        (c) => `{ ${c}; }`,
        (c) => `! ${c}`,
        (c) => `${c} 2>&1`,
        (c) => `${c} >/dev/null`,
        (c) => `${c} # ${pick(args)} ; touch z`,
        (c) => `${c} \\\n ${pick(args)}`,
    ];
    const out = [];
    for (let i = 0; i < count; i++) {
        const parts = [];
        for (let k = 1 + rnd(3); k > 0; k--) {
            let c = pick(names);
            for (let j = rnd(4); j > 0; j--)
                c += (rnd(5) === 0 ? '' : ' ') + pick(args);
            parts.push(pick(wraps)(c));
        }
        out.push(parts.reduce((acc, p) => `${acc}${pick(seps)}${p}`));
    }
    return out;
}
(0, node_test_1.test)('unit: for every command line the analysis calls certain, bash runs only the commands it found', () => {
    const log = path.join(dir, 'log');
    const home = path.join(dir, 'home');
    let checked = 0;
    const mismatches = [];
    for (const cmd of generate(400, 2026)) {
        const a = (0, shellAnalysis_1.analyzeShell)(cmd, home);
        if (!a.certain || a.commands.some((c) => c.words.some((w) => w.values === undefined || w.glob)))
            continue;
        checked++;
        fs.writeFileSync(log, '');
        (0, node_child_process_1.spawnSync)('/bin/bash', ['-c', `enable -n echo printf test [ true false pwd type kill; ${cmd}`], {
            cwd: dir,
            env: { PATH: path.join(dir, 'bin'), RECLOG: log, HOME: home },
            timeout: 5000,
            input: '',
        });
        const ran = fs
            .readFileSync(log, 'utf8')
            .split('\x1d')
            .filter((r) => r !== '')
            .map((r) => r.split('\x1e').slice(0, -1));
        const found = new Set(a.commands.map((c) => JSON.stringify(c.words.flatMap((w) => w.values))));
        for (const r of ran)
            if (!found.has(JSON.stringify(r)))
                mismatches.push(`${JSON.stringify(cmd)}: bash ran ${JSON.stringify(r)}, analysis ${[...found].join(' ')}`);
    }
    console.log(`[shell-differential] ${checked} certain command lines checked against bash`);
    strict_1.default.ok(checked >= 150, `only ${checked} certain lines`);
    strict_1.default.deepEqual(mismatches, []);
});
//# sourceMappingURL=shellDifferential.test.js.map