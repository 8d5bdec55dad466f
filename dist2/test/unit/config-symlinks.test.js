"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The configuration loaders never follow a symlink out (issue 18, Deliver 1(c)): they run in the
// client, outside the sandbox, and what they read configures the session or reaches the model (an
// agent file's body is a system prompt). A project's `.claude/settings*.json`,
// `.durable-agent/settings.json`, `.mcp.json` and `.claude/agents/*.md` whose real path leaves the
// project (the file or a directory on its way is a link) is refused, and no file of any scope is
// read when it leads to a credential file; the error names the file and never quotes it. Real
// files and links, a fake HOME with bait credentials, the real CLI for the end-to-end cases.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const settings_1 = require("../../src/cli/settings");
const definitions_1 = require("../../src/agents/definitions");
const config_1 = require("../../src/mcp/config");
const configRead_1 = require("../../src/permissions/configRead");
const cli_1 = require("../support/cli");
const SECRETS = ['SECRET-KEY-MATERIAL', 'SECRET-AGENT-BODY', 'SECRET-SETTINGS-VALUE', 'SECRET-SERVER-ARG'];
const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';
let outside = '';
let marker = '';
function put(path, content) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
}
function link(path, target) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.symlinkSync)(target, path);
}
function noSecret(text, what) {
    for (const s of SECRETS)
        strict_1.default.ok(!text.includes(s), `${what} quotes ${s}: ${text}`);
}
(0, node_test_1.beforeEach)(() => {
    root = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-config-links-')));
    cwd = (0, node_path_1.join)(root, 'project');
    home = (0, node_path_1.join)(root, 'home');
    outside = (0, node_path_1.join)(root, 'elsewhere');
    marker = (0, node_path_1.join)(root, 'server-ran');
    for (const d of [cwd, home, outside])
        (0, node_fs_1.mkdirSync)(d, { recursive: true });
    put((0, node_path_1.join)(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n-----END OPENSSH PRIVATE KEY-----\n');
    put((0, node_path_1.join)(home, '.aws', 'credentials'), '---\nname: aws\ndescription: SECRET-KEY-MATERIAL\n---\nSECRET-KEY-MATERIAL\n');
    put((0, node_path_1.join)(outside, 'agent.md'), '---\nname: x\ndescription: An agent from elsewhere\n---\nSECRET-AGENT-BODY\n');
    put((0, node_path_1.join)(outside, 'settings.json'), {
        permissions: { allow: ['Bash'], defaultMode: 'bypassPermissions' },
        model: 'SECRET-SETTINGS-VALUE',
    });
    put((0, node_path_1.join)(outside, 'mcp.json'), {
        mcpServers: {
            evil: {
                command: process.execPath,
                args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'SECRET-SERVER-ARG')`],
            },
        },
    });
    process.env.HOME = home;
    process.env.CLAUDE_CONFIG_DIR = (0, node_path_1.join)(home, '.claude');
    process.env.DURABLE_AGENT_HOME = (0, node_path_1.join)(home, '.durable-agent');
    process.env.DURABLE_AGENT_MANAGED_SETTINGS = (0, node_path_1.join)(root, 'etc', 'managed-settings.json');
});
(0, node_test_1.afterEach)(() => {
    for (const k of ['HOME', 'CLAUDE_CONFIG_DIR', 'DURABLE_AGENT_HOME', 'DURABLE_AGENT_MANAGED_SETTINGS']) {
        if (saved[k] === undefined)
            delete process.env[k];
        else
            process.env[k] = saved[k];
    }
    (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
});
function refusal(f) {
    try {
        f();
    }
    catch (e) {
        return e;
    }
    strict_1.default.fail('expected a refusal');
}
async function refusalAsync(f) {
    try {
        await f();
    }
    catch (e) {
        return e;
    }
    strict_1.default.fail('expected a refusal');
}
(0, node_test_1.test)('unit: config links: a project agent file linked from outside the project, or to a credential file, is refused naming the file; its body never reaches a message', async () => {
    link((0, node_path_1.join)(cwd, '.claude', 'agents', 'x.md'), (0, node_path_1.join)(outside, 'agent.md'));
    let e = await refusalAsync(() => (0, definitions_1.loadAgentDefinitions)(cwd));
    strict_1.default.ok(e instanceof definitions_1.AgentDefinitionError, String(e));
    strict_1.default.match(e.message, new RegExp(`^${(0, node_path_1.join)(cwd, '.claude', 'agents', 'x.md')}: not read: it resolves to ${(0, node_path_1.join)(outside, 'agent.md')}, outside ${cwd}`));
    noSecret(e.message, 'the agent error');
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude', 'agents', 'x.md'));
    // A credential file, even one that parses as an agent.
    link((0, node_path_1.join)(cwd, '.claude', 'agents', 'aws.md'), (0, node_path_1.join)(home, '.aws', 'credentials'));
    e = await refusalAsync(() => (0, definitions_1.loadAgentDefinitions)(cwd));
    strict_1.default.match(e.message, /aws\.md: not read: it resolves to .*\.aws\/credentials, a credential file/);
    noSecret(e.message, 'the agent error');
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude', 'agents', 'aws.md'));
    // Through a linked directory.
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude', 'agents'), { recursive: true });
    link((0, node_path_1.join)(cwd, '.claude', 'agents'), outside);
    e = await refusalAsync(() => (0, definitions_1.loadAgentDefinitions)(cwd));
    strict_1.default.match(e.message, /agent\.md: not read: it resolves to .*elsewhere\/agent\.md, outside/);
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude', 'agents'));
    // A link that stays inside the project is an ordinary file.
    put((0, node_path_1.join)(cwd, 'shared', 'z.md'), '---\nname: z\ndescription: Shared in the repo\n---\nYou are z.\n');
    link((0, node_path_1.join)(cwd, '.claude', 'agents', 'z.md'), (0, node_path_1.join)('..', '..', 'shared', 'z.md'));
    strict_1.default.deepEqual((await (0, definitions_1.loadAgentDefinitions)(cwd)).map((a) => a.name), ['general-purpose', 'Explore', 'Plan', 'z']);
    // The user's own agents may live anywhere (a dotfiles repository), but never in a credential file.
    link((0, node_path_1.join)(home, '.claude', 'agents', 'x.md'), (0, node_path_1.join)(outside, 'agent.md'));
    strict_1.default.deepEqual((await (0, definitions_1.loadAgentDefinitions)(cwd)).map((a) => a.name).sort(), [
        'Explore',
        'Plan',
        'general-purpose',
        'x',
        'z',
    ]);
    link((0, node_path_1.join)(home, '.claude', 'agents', 'key.md'), (0, node_path_1.join)(home, '.ssh', 'id_rsa'));
    e = await refusalAsync(() => (0, definitions_1.loadAgentDefinitions)(cwd));
    strict_1.default.match(e.message, /key\.md: not read: it resolves to .*\.ssh\/id_rsa, a credential file/);
    noSecret(e.message, 'the agent error');
});
(0, node_test_1.test)('unit: config links: project settings linked out of the project (file or .claude directory) or to a key are refused; user settings from a dotfiles link are read', () => {
    link((0, node_path_1.join)(cwd, '.claude', 'settings.json'), (0, node_path_1.join)(outside, 'settings.json'));
    let e = refusal(() => (0, settings_1.loadSettings)(cwd));
    strict_1.default.ok(e instanceof settings_1.SettingsError, String(e));
    strict_1.default.match(e.message, new RegExp(`^${(0, node_path_1.join)(cwd, '.claude', 'settings.json')}: not read: it resolves to ${(0, node_path_1.join)(outside, 'settings.json')}, outside ${cwd}`));
    noSecret(e.message, 'the settings error');
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude'), { recursive: true });
    link((0, node_path_1.join)(cwd, '.claude'), outside); // .claude/settings.json is elsewhere/settings.json
    e = refusal(() => (0, settings_1.loadSettings)(cwd));
    strict_1.default.match(e.message, /\.claude\/settings\.json: not read: it resolves to .*elsewhere\/settings\.json, outside/);
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude'));
    link((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), (0, node_path_1.join)(home, '.ssh', 'id_rsa'));
    e = refusal(() => (0, settings_1.loadSettings)(cwd));
    strict_1.default.match(e.message, /settings\.local\.json: not read: it resolves to .*\.ssh\/id_rsa, a credential file/);
    noSecret(e.message, 'the settings error');
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude'), { recursive: true });
    link((0, node_path_1.join)(cwd, '.durable-agent', 'settings.json'), (0, node_path_1.join)(outside, 'settings.json'));
    strict_1.default.match(refusal(() => (0, settings_1.loadSettings)(cwd)).message, /\.durable-agent\/settings\.json: not read: it resolves to/);
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.durable-agent'), { recursive: true });
    // The user's settings file may be a link (a dotfiles manager): read.
    link((0, node_path_1.join)(home, '.claude', 'settings.json'), (0, node_path_1.join)(outside, 'settings.json'));
    strict_1.default.deepEqual((0, settings_1.loadSettings)(cwd).allow, ['Bash']);
});
(0, node_test_1.test)('unit: config links: a .mcp.json linked from outside its directory is refused before any server is resolved; ~/.claude.json is read as itself', () => {
    link((0, node_path_1.join)(cwd, '.mcp.json'), (0, node_path_1.join)(outside, 'mcp.json'));
    const e = refusal(() => (0, config_1.resolveMcpServers)({ cwd }));
    strict_1.default.ok(e instanceof config_1.McpConfigError, String(e));
    strict_1.default.match(e.message, new RegExp(`^${(0, node_path_1.join)(cwd, '.mcp.json')}: not read: it resolves to ${(0, node_path_1.join)(outside, 'mcp.json')}, outside ${cwd}`));
    noSecret(e.message, 'the MCP error');
    (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.mcp.json'));
    // ~/.claude.json is on the credential list, and it is the file the loader means to read.
    put((0, node_path_1.join)(home, '.claude.json'), { mcpServers: { mine: { command: 'my-server' } } });
    strict_1.default.deepEqual(Object.keys((0, config_1.resolveMcpServers)({ cwd, claudeJson: (0, node_path_1.join)(home, '.claude.json') }).servers), ['mine']);
    // …but not when it leads to another credential file.
    (0, node_fs_1.rmSync)((0, node_path_1.join)(home, '.claude.json'));
    link((0, node_path_1.join)(home, '.claude.json'), (0, node_path_1.join)(home, '.ssh', 'id_rsa'));
    strict_1.default.match(refusal(() => (0, config_1.resolveMcpServers)({ cwd, claudeJson: (0, node_path_1.join)(home, '.claude.json') })).message, /\.claude\.json: not read: it resolves to .*id_rsa, a credential file/);
    // A dangling link is an absent file.
    strict_1.default.deepEqual((0, configRead_1.readConfigFileSync)((0, node_path_1.join)(cwd, 'nothing.json')), { missing: true });
    link((0, node_path_1.join)(cwd, 'dangling.json'), (0, node_path_1.join)(root, 'gone.json'));
    strict_1.default.deepEqual((0, configRead_1.readConfigFileSync)((0, node_path_1.join)(cwd, 'dangling.json'), { within: [cwd] }), { missing: true });
});
(0, node_test_1.test)('cli: run refuses a project whose .mcp.json, agent file or settings lead out of it: exit 1, the file named, no server started, nothing quoted', async () => {
    const env = {
        HOME: home,
        CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
        DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
        DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(root, 'etc', 'managed-settings.json'),
        TEMPORAL_ADDRESS: '127.0.0.1:1',
    };
    const cases = [
        [
            '.mcp.json',
            () => link((0, node_path_1.join)(cwd, '.mcp.json'), (0, node_path_1.join)(outside, 'mcp.json')),
            /\.mcp\.json: not read: it resolves to .*elsewhere\/mcp\.json, outside/,
        ],
        [
            'agent',
            () => link((0, node_path_1.join)(cwd, '.claude', 'agents', 'x.md'), (0, node_path_1.join)(outside, 'agent.md')),
            /agents\/x\.md: not read: it resolves to .*elsewhere\/agent\.md, outside/,
        ],
        [
            'settings',
            () => link((0, node_path_1.join)(cwd, '.claude', 'settings.json'), (0, node_path_1.join)(outside, 'settings.json')),
            /\.claude\/settings\.json: not read: it resolves to .*elsewhere\/settings\.json, outside/,
        ],
        [
            'key',
            () => link((0, node_path_1.join)(cwd, '.claude', 'agents', 'k.md'), (0, node_path_1.join)(home, '.ssh', 'id_rsa')),
            /agents\/k\.md: not read: it resolves to .*id_rsa, a credential file/,
        ],
    ];
    for (const [name, setup, message] of cases) {
        (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.claude'), { recursive: true, force: true });
        (0, node_fs_1.rmSync)((0, node_path_1.join)(cwd, '.mcp.json'), { force: true });
        setup();
        const r = await (0, cli_1.cli)(['run', '--cwd', cwd, '--model', 'claude-test', '--permission-mode', 'bypassPermissions', 'go'], env);
        strict_1.default.equal(r.code, 1, `${name}: ${r.stdout} ${r.stderr}`);
        strict_1.default.match(r.stderr, message, name);
        strict_1.default.doesNotMatch(r.stderr + r.stdout, /session \S+ started|unreachable/i, `${name}: refused before any connection`);
        noSecret(r.stderr + r.stdout, name);
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), false, `${name}: the linked server never ran`);
    }
});
//# sourceMappingURL=config-symlinks.test.js.map