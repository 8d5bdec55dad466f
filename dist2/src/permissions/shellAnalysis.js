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
exports.suspiciousCharacters = suspiciousCharacters;
exports.analyzeShell = analyzeShell;
// One command line, analysed on the tree-sitter-bash parse tree: every simple command it can run
// (at any depth: lists, pipelines, subshells, groups, $(…), `…`, <(…), here-documents, bodies of
// if/while/for/functions), its redirections, and whether the analysis is CERTAIN. Certain means:
// no parse error, only node kinds listed below, no expansion that runs code or whose value matters
// for more than data ($(…), arithmetic, ${x@P}, ${!x}, ${a[i]}, here-documents…), and no character
// that bash and the parser read differently. Allow rules and read-only detection need certainty;
// deny/ask rules look at everything that was found, plus the crude readings of `alternatives`.
const os = __importStar(require("node:os"));
const bashParser_1 = require("./bashParser");
const shellWords_1 = require("./shellWords");
/** Named node kinds whose meaning we model fully. Anything else makes the analysis uncertain. */
const STATEMENTS = new Set([
    'program',
    'list',
    'pipeline',
    'subshell',
    'compound_statement',
    'negated_command',
    'redirected_statement',
]);
const PLAIN_PARAM = /^\$(\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])$/;
/** Characters that bash treats as part of a word but a parser may read as blanks. */
const CONFUSING_CHARS = /[\0-\x08\x0b-\x1f\x7f\x85\xa0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/u;
function suspiciousCharacters(command) {
    const m = CONFUSING_CHARS.exec(command);
    if (m)
        return `the character U+${m[0].codePointAt(0).toString(16).padStart(4, '0').toUpperCase()}, which bash and the parser may read differently`;
    // A line continuation inside a word joins the word with the next line in bash.
    if (/(^|[^ \t])\\\n/.test(command))
        return 'a line continuation inside a word';
    return undefined;
}
const cache = new Map();
const CACHE_MAX = 500;
function analyzeShell(command, home = os.homedir()) {
    const key = `${home}\0${command}`;
    const hit = cache.get(key);
    if (hit)
        return hit;
    const a = analyzeUncached(command, home);
    if (!a.parsed)
        return a;
    if (cache.size >= CACHE_MAX)
        cache.delete(cache.keys().next().value);
    cache.set(key, a);
    return a;
}
function analyzeUncached(command, home) {
    const root = (0, bashParser_1.parseBash)(command);
    if (!root) {
        const reasons = [(0, bashParser_1.shellParserReady)() ? 'the command is too large to analyse' : 'the shell parser is not available'];
        return { parsed: false, certain: false, reasons, commands: [], redirects: [] };
    }
    const walker = new ShellWalker(home);
    const suspicious = suspiciousCharacters(command);
    if (suspicious)
        walker.reason(suspicious);
    walker.visit(root, false);
    walker.out.certain = walker.out.reasons.length === 0;
    return walker.out;
}
/** One walk over a parsed command: what it runs, where it redirects, and every reason for doubt. */
class ShellWalker {
    home;
    out = { parsed: true, certain: false, reasons: [], commands: [], redirects: [] };
    /** How many subshells or { … } groups enclose the node being walked. */
    group = 0;
    constructor(home) {
        this.home = home;
    }
    reason(r) {
        if (!this.out.reasons.includes(r))
            this.out.reasons.push(r);
    }
    word(n, nested) {
        const form = this.wordForm(n, nested);
        return form === undefined ? (0, shellWords_1.dynamicWord)(n.text, 'expansion') : (0, shellWords_1.wordFromForm)(n.text, form, this.home);
    }
    /** The escaped form of a word node, or undefined when its value is only known at run time. */
    wordForm(n, nested) {
        if (n.bad)
            this.reason('the command does not parse');
        switch (n.type) {
            case 'word':
            case 'number':
            case 'brace_expression':
                // tree-sitter-bash glues `cmd<newline>\\next` into one word; bash runs two commands.
                if (/(^|[^\\])(\\\\)*[\s]/.test(n.text))
                    this.reason('a word that spans blanks or lines');
                return n.text;
            case 'raw_string':
                return (0, shellWords_1.escapeAll)(n.text.slice(1, -1));
            case 'ansi_c_string':
                return (0, shellWords_1.escapeAll)((0, shellWords_1.decodeAnsiC)(n.text.slice(2, -1)));
            case 'string': {
                let dynamic = false;
                for (const c of n.children) {
                    if (c.named && c.type !== 'string_content') {
                        this.wordForm(c, nested);
                        dynamic = true;
                    }
                }
                return dynamic ? undefined : (0, shellWords_1.escapeAll)((0, shellWords_1.doubleQuotedValue)(n.text.slice(1, -1)));
            }
            case 'concatenation': {
                let s = '';
                let dynamic = false;
                for (const c of n.children) {
                    const f = c.named ? this.wordForm(c, nested) : c.text;
                    if (f === undefined)
                        dynamic = true;
                    else
                        s += f;
                }
                return dynamic ? undefined : s;
            }
            case 'simple_expansion':
            case 'expansion':
                if (!PLAIN_PARAM.test(n.text))
                    this.reason(`the parameter expansion ${n.text.slice(0, 40)}`);
                for (const c of n.children)
                    if (c.named)
                        this.visit(c, nested, true);
                return undefined;
            case 'command_substitution':
            case 'process_substitution':
                this.reason('a command or process substitution');
                for (const c of n.children)
                    this.visit(c, true);
                return undefined;
            case 'arithmetic_expansion':
                this.reason('an arithmetic expansion');
                for (const c of n.children)
                    this.visit(c, true, true);
                return undefined;
            default:
                this.reason(`the construct ${n.type}`);
                for (const c of n.children)
                    this.visit(c, true, true);
                return undefined;
        }
    }
    redirect(n, nested) {
        if (n.bad)
            this.reason('the command does not parse');
        const r = { op: '', nested };
        let targets = 0;
        for (const c of n.children) {
            if (c.type === 'file_descriptor')
                r.fd = c.text;
            else if (!c.named)
                r.op = c.text;
            else {
                targets++;
                r.target = this.word(c, nested);
            }
        }
        if (n.type === 'herestring_redirect')
            r.op = '<<<';
        if (targets !== 1 && !(targets === 0 && /-$/.test(r.op)))
            this.reason('a redirection the parser reads ambiguously');
        this.out.redirects.push(r);
    }
    push(cmd) {
        if (this.group > 0)
            cmd.grouped = true;
        this.out.commands.push(cmd);
    }
    /** `[ … ]` is the command `[`: its words are the leaves of the parsed test expression. */
    testWords(n, into, nested) {
        for (const c of n.children) {
            if (!c.named || c.type === 'test_operator')
                into.push({ raw: c.text, values: [c.text], patterns: [(0, shellWords_1.escapeAll)(c.text)], glob: false });
            else if (['unary_expression', 'binary_expression', 'parenthesized_expression'].includes(c.type))
                this.testWords(c, into, nested);
            else
                into.push(this.word(c, nested));
        }
    }
    simpleCommand(n, nested) {
        const cmd = { words: [], assignments: [], nested, background: false, text: '' };
        for (const c of n.children) {
            if (c.type === 'variable_assignment')
                this.assignment(c, cmd, nested);
            else if (c.type === 'command_name')
                for (const w of c.children)
                    cmd.words.push(this.word(w, nested));
            else if (c.type === 'file_redirect' || c.type === 'herestring_redirect')
                this.redirect(c, nested);
            else if (c.named)
                cmd.words.push(this.word(c, nested));
            else if (c.bad)
                this.reason('the command does not parse');
        }
        cmd.text = cmd.words.map((w) => w.raw).join(' ');
        this.push(cmd);
    }
    assignment(n, cmd, nested) {
        const nameNode = n.children[0];
        if (!nameNode || nameNode.type !== 'variable_name') {
            this.reason('an array assignment');
            for (const c of n.children)
                this.visit(c, nested, true);
            cmd.assignments.push({ name: nameNode?.text ?? '' });
            return;
        }
        const valueNode = n.children.find((c, k) => k > 0 && c.named);
        if (n.text.startsWith(`${nameNode.text}+=`))
            this.reason('an appending assignment');
        if (valueNode && valueNode.type === 'array') {
            this.reason('an array assignment');
            for (const c of valueNode.children)
                this.visit(c, nested, true);
            cmd.assignments.push({ name: nameNode.text });
            return;
        }
        cmd.assignments.push(valueNode ? { name: nameNode.text, value: this.word(valueNode, nested) } : { name: nameNode.text });
    }
    /** `inWord`: walking a node found inside a word (its commands are nested). */
    visit(n, nested, inWord = false) {
        if (n.bad)
            this.reason('the command does not parse');
        if (!n.named)
            return;
        if (STATEMENTS.has(n.type)) {
            const grouping = n.type === 'subshell' || n.type === 'compound_statement';
            if (grouping)
                this.group++;
            try {
                this.statementChildren(n, nested);
            }
            finally {
                if (grouping)
                    this.group--;
            }
            return;
        }
        switch (n.type) {
            case 'command':
                this.simpleCommand(n, nested);
                return;
            case 'test_command': {
                if (n.children[0]?.type !== '[') {
                    this.reason('a [[ … ]] test (its operands are evaluated arithmetically)');
                    for (const c of n.children)
                        this.visit(c, nested, true);
                    return;
                }
                const cmd = { words: [], assignments: [], nested, background: false, text: '' };
                this.testWords(n, cmd.words, nested);
                cmd.text = cmd.words.map((w) => w.raw).join(' ');
                this.push(cmd);
                return;
            }
            default:
                this.visitOther(n, nested, inWord);
        }
    }
    statementChildren(n, nested) {
        let lastStart = this.out.commands.length;
        for (const c of n.children) {
            if (!c.named && c.type === '&') {
                for (let k = lastStart; k < this.out.commands.length; k++)
                    this.out.commands[k].background = true;
            }
            if (!c.named) {
                if (c.bad)
                    this.reason('the command does not parse');
                continue;
            }
            lastStart = this.out.commands.length;
            this.visit(c, nested);
        }
    }
    visitOther(n, nested, inWord) {
        switch (n.type) {
            case 'comment':
                return;
            case 'file_redirect':
            case 'herestring_redirect':
                this.redirect(n, nested);
                return;
            case 'variable_assignment':
            case 'variable_assignments': {
                const cmd = { words: [], assignments: [], nested, background: false, text: '' };
                for (const c of n.type === 'variable_assignment'
                    ? [n]
                    : n.children.filter((x) => x.type === 'variable_assignment')) {
                    this.assignment(c, cmd, nested);
                }
                this.push(cmd);
                return;
            }
            case 'declaration_command':
            case 'unset_command': {
                this.reason(`the ${n.children[0]?.text ?? 'declaration'} command`);
                const cmd = {
                    words: [],
                    assignments: [],
                    nested,
                    background: false,
                    text: '',
                    declaration: true,
                };
                for (const c of n.children) {
                    if (!c.named)
                        cmd.words.push({ raw: c.text, values: [c.text], patterns: [(0, shellWords_1.escapeAll)(c.text)], glob: false });
                    else if (c.type === 'variable_assignment')
                        this.assignment(c, cmd, nested);
                    else
                        cmd.words.push(this.word(c, nested));
                }
                cmd.text = cmd.words.map((w) => w.raw).join(' ');
                this.push(cmd);
                return;
            }
            case 'heredoc_redirect':
                this.reason('a here-document');
                for (const c of n.children)
                    this.visit(c, true, true);
                return;
            default:
                if (inWord &&
                    [
                        'variable_name',
                        'special_variable_name',
                        'string_content',
                        'heredoc_start',
                        'heredoc_end',
                        'heredoc_content',
                        'word',
                        'number',
                    ].includes(n.type)) {
                    return;
                }
                if (!inWord)
                    this.reason(`the construct ${n.type}`);
                if ([
                    'string',
                    'concatenation',
                    'expansion',
                    'simple_expansion',
                    'command_substitution',
                    'process_substitution',
                    'arithmetic_expansion',
                ].includes(n.type)) {
                    this.wordForm(n, nested);
                    return;
                }
                for (const c of n.children)
                    this.visit(c, nested, inWord);
        }
    }
}
//# sourceMappingURL=shellAnalysis.js.map