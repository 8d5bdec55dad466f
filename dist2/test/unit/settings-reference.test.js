"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: settings files as a Claude Code user has them, each behaviour settled against the
// reference binary (Claude Code 2.1.197): a byte-order mark, an empty file, malformed JSON (an
// error with line and column), `~/` in additionalDirectories, a real-world settings.json full of
// UI keys (one note, not a flood), behaviour keys warned with the reason, claudeMdExcludes.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const settings_1 = require("../../src/cli/settings");
const model_1 = require("../../src/cli/model");
const claudeMd_1 = require("../../src/memory/claudeMd");
const jsonPosition_1 = require("../../src/engine/jsonPosition");
const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';
function put(path, content) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return path;
}
(0, node_test_1.beforeEach)(() => {
    root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-settings-ref-'));
    home = (0, node_path_1.join)(root, 'home');
    cwd = (0, node_path_1.join)(root, 'work', 'repo');
    (0, node_fs_1.mkdirSync)(cwd, { recursive: true });
    (0, node_fs_1.mkdirSync)(home, { recursive: true });
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
(0, node_test_1.test)('unit: a settings file with a byte-order mark is read; an empty file holds no settings (as the reference)', () => {
    const shared = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), '\ufeff{"model":"m-bom"}');
    const local = put((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), '  \n');
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.equal(s.model, 'm-bom');
    strict_1.default.deepEqual(s.sources, [shared, local]);
    strict_1.default.deepEqual(s.warnings, []);
});
(0, node_test_1.test)('unit: malformed JSON is an error naming the file, line and column', () => {
    const shared = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), '{\n  "model": "m",\n  "permissions": {"allow": ["Read"],}\n}\n');
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), (e) => e instanceof settings_1.SettingsError &&
        e.message.startsWith(`${shared} is not valid JSON at line 3 column 37:`) &&
        /trailing commas/.test(e.message));
    strict_1.default.throws(() => (0, settings_1.parseSettingsJson)('f.json', '{\n // a comment\n "model": "m"\n}'), /^SettingsError|f\.json is not valid JSON at line 2 column 2/);
    strict_1.default.throws(() => (0, settings_1.parseSettingsJson)('f.json', '{"model": "m"'), /f\.json is not valid JSON/);
});
(0, node_test_1.test)('unit: additionalDirectories: `~/` is the home directory, relative paths the working directory; a missing directory is a warning, duplicates once', () => {
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(home, 'shared-lib'), { recursive: true });
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(root, 'work', 'other'), { recursive: true });
    const user = put((0, node_path_1.join)(home, '.claude', 'settings.json'), {
        permissions: { additionalDirectories: ['~/shared-lib', '../other', '~/gone'] },
    });
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { permissions: { additionalDirectories: ['../other'] } });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.deepEqual(s.additionalDirectories, [(0, node_path_1.join)(home, 'shared-lib'), (0, node_path_1.join)(root, 'work', 'other')]);
    strict_1.default.deepEqual(s.warnings, [
        `${user}: permissions.additionalDirectories "~/gone": ${(0, node_path_1.join)(home, 'gone')} does not exist; it is ignored`,
    ]);
});
(0, node_test_1.test)('unit: a real-world ~/.claude/settings.json: UI keys are one note naming the file, behaviour keys a warning each with why, nothing blocks', () => {
    const user = put((0, node_path_1.join)(home, '.claude', 'settings.json'), {
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        model: 'claude-sonnet-5',
        includeCoAuthoredBy: false,
        cleanupPeriodDays: 20,
        statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
        outputStyle: 'Explanatory',
        apiKeyHelper: '/bin/key.sh',
        forceLoginMethod: 'console',
        enableAllProjectMcpServers: true,
        spinnerTipsEnabled: false,
        theme: 'dark',
        env: { BASH_DEFAULT_TIMEOUT_MS: '300000', NODE_ENV: 'test' },
        fallbackModel: 'claude-haiku',
        permissions: { allow: ['Bash(npm test)'], disableBypassPermissionsMode: 'disable' },
        colour: 'blue',
    });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.equal(s.model, 'claude-sonnet-5');
    strict_1.default.deepEqual(s.allow, ['Bash(npm test)']);
    strict_1.default.equal(s.disableBypassPermissionsMode, true);
    strict_1.default.equal(s.bypassDisabledBy, user);
    strict_1.default.deepEqual(s.notes, [
        `${user}: cleanupPeriodDays, statusLine, forceLoginMethod, spinnerTipsEnabled, theme only shape Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
    ]);
    const keys = s.warnings.map((w) => w.slice(user.length + 2).split(' is ')[0]);
    strict_1.default.deepEqual(keys, [
        'includeCoAuthoredBy',
        'outputStyle',
        'apiKeyHelper',
        'env (BASH_DEFAULT_TIMEOUT_MS, NODE_ENV)',
        'fallbackModel',
        'colour',
    ]);
    strict_1.default.ok(s.warnings.every((w) => w.startsWith(`${user}: `)));
    strict_1.default.match(s.warnings[3], /does not support; it is ignored: .*set them in the worker's environment/);
    strict_1.default.match(s.warnings[5], /not a known setting; it is ignored \(misspelt\?\)/);
});
(0, node_test_1.test)('unit: claudeMdExcludes (concatenated over files) drops memory files by glob or absolute path, imports too; the managed memory stays', () => {
    put((0, node_path_1.join)(home, '.claude', 'settings.json'), { claudeMdExcludes: ['**/docs/x.md'] });
    const local = put((0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'local');
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), {
        claudeMdExcludes: [local, '**/.claude/rules/**', (0, node_path_1.join)(root, 'etc', 'CLAUDE.md')],
    });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.deepEqual(s.claudeMdExcludes, ['**/docs/x.md', local, '**/.claude/rules/**', (0, node_path_1.join)(root, 'etc', 'CLAUDE.md')]);
    const managed = put((0, node_path_1.join)(root, 'etc', 'CLAUDE.md'), 'managed');
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'p\n@docs/x.md\n@docs/y.md');
    put((0, node_path_1.join)(cwd, 'docs', 'x.md'), 'x');
    const y = put((0, node_path_1.join)(cwd, 'docs', 'y.md'), 'y');
    put((0, node_path_1.join)(cwd, '.claude', 'rules', 'r.md'), 'rule');
    const m = (0, claudeMd_1.loadMemory)(cwd, { home, managed, excludes: s.claudeMdExcludes });
    strict_1.default.deepEqual(m.files.map((f) => f.path), [managed, project, y]);
    strict_1.default.deepEqual(m.warnings, []);
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { claudeMdExcludes: '**/x.md' });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), /settings\.json: claudeMdExcludes must be a list of strings/);
});
(0, node_test_1.test)("unit: Claude Code's auto memory index for the directory is reported, not loaded", () => {
    const auto = put((0, node_path_1.join)(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md'), '- [a](a.md)');
    const m = (0, claudeMd_1.loadMemory)(cwd, { home, configDir: (0, node_path_1.join)(home, '.claude'), managed: (0, node_path_1.join)(root, 'none.md') });
    strict_1.default.deepEqual(m.files, []);
    strict_1.default.deepEqual(m.warnings, [
        `${auto}: Claude Code's auto memory is not loaded by durable-agent (its sessions neither read nor write it)`,
    ]);
});
(0, node_test_1.test)('unit: the model as the reference picks it: --model, else ANTHROPIC_MODEL, else settings; aliases become model ids', () => {
    const warnings = [];
    const warn = (w) => void warnings.push(w);
    strict_1.default.equal((0, model_1.sessionModel)('claude-flag', { ANTHROPIC_MODEL: 'claude-env' }, 'claude-settings', warn), 'claude-flag');
    strict_1.default.equal((0, model_1.sessionModel)(undefined, { ANTHROPIC_MODEL: 'claude-env' }, 'claude-settings', warn), 'claude-env');
    strict_1.default.equal((0, model_1.sessionModel)(undefined, {}, 'claude-settings', warn), 'claude-settings');
    strict_1.default.equal((0, model_1.sessionModel)(undefined, {}, undefined, warn), undefined);
    // `"model": "sonnet"` (what /model writes) never reaches the API as "sonnet".
    for (const alias of ['sonnet', 'opus', 'haiku', 'best', 'opusplan'])
        strict_1.default.match((0, model_1.sessionModel)(undefined, {}, alias, warn), /^claude-(sonnet|opus|haiku)-/, alias);
    strict_1.default.equal((0, model_1.sessionModel)(undefined, { ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-my-sonnet' }, 'sonnet', warn), 'claude-my-sonnet');
    strict_1.default.equal((0, model_1.sessionModel)(undefined, { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-my-opus' }, 'best', warn), 'claude-my-opus');
    strict_1.default.deepEqual(warnings, []);
    strict_1.default.equal((0, model_1.sessionModel)('claude-opus-4-8[1m]', {}, undefined, warn), 'claude-opus-4-8');
    strict_1.default.deepEqual(warnings, [
        'model claude-opus-4-8[1m]: the 1M-token context beta is not supported; using claude-opus-4-8',
    ]);
});
(0, node_test_1.test)('unit: jsonErrorOffset finds the first bad character where JSON.parse gives no position, and accepts what JSON.parse accepts', () => {
    const cases = [
        ['{"a": [1, 2,]}', 12],
        ['{"a": 1,}', 8],
        ['{\n // c\n}', 3],
        ['{"a": 1', 7],
        ['{"a" 1}', 5],
        ['{"a": tru}', 9],
        ['{"a": "x\\q"}', 9],
        ['[1] x', 4],
        ['{"a": -}', 6],
        ['{"a": [true, false, null, -1.5e3, "\\u00e9\\n", {"b": {}}], "c": []}', undefined],
        ['  {}  ', undefined],
    ];
    for (const [text, offset] of cases) {
        strict_1.default.equal((0, jsonPosition_1.jsonErrorOffset)(text), offset, text);
        let valid = true;
        try {
            JSON.parse(text);
        }
        catch {
            valid = false;
        }
        strict_1.default.equal(valid, offset === undefined, text);
    }
    const bad = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n');
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), (e) => e.message.startsWith(`${bad} is not valid JSON at line 3 column 27: `) && !e.message.includes('\n'));
});
(0, node_test_1.test)('unit: defaultMode "auto" (the reference\'s classifier mode) is a warning and the session runs in default mode; a made-up mode is an error', () => {
    put((0, node_path_1.join)(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'bypassPermissions' } });
    const shared = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { permissions: { defaultMode: 'auto' } });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.equal(s.mode, 'default', 'never the laxer mode of a lower file');
    strict_1.default.deepEqual(s.warnings, [
        `${shared}: permissions.defaultMode "auto" (a classifier approving calls) is a Claude Code mode durable-agent does not implement; the session runs in "default" mode: calls that need approval wait for one`,
    ]);
    put(shared, { permissions: { defaultMode: 'yolo' } });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), /settings\.json: permissions\.defaultMode "yolo" is not one of/);
});
(0, node_test_1.test)('unit: managed-settings.d/*.json after managed-settings.json (name order, dot files skipped), as the reference: a later scalar wins, rules and hooks add up', () => {
    const etc = (0, node_path_1.join)(root, 'etc');
    const main = put((0, node_path_1.join)(etc, 'managed-settings.json'), {
        model: 'claude-managed',
        permissions: { deny: ['Bash(curl:*)'] },
    });
    const b = put((0, node_path_1.join)(etc, 'managed-settings.d', '20-model.json'), {
        model: 'claude-dropin',
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'b.sh' }] }] },
    });
    const a = put((0, node_path_1.join)(etc, 'managed-settings.d', '10-rules.json'), {
        permissions: { deny: ['WebFetch'], defaultMode: 'dontAsk' },
        allowManagedPermissionRulesOnly: true,
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'a.sh' }] }] },
    });
    put((0, node_path_1.join)(etc, 'managed-settings.d', '.hidden.json'), { model: 'claude-hidden' });
    put((0, node_path_1.join)(etc, 'managed-settings.d', 'notes.txt'), 'not settings');
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), {
        model: 'claude-project',
        permissions: { allow: ['Bash(npm test)'] },
        disableAllHooks: true,
    });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.deepEqual(s.sources.slice(-3), [main, a, b]);
    strict_1.default.deepEqual(s.managed, { model: 'claude-dropin', mode: 'dontAsk', path: b });
    strict_1.default.equal(s.model, 'claude-dropin');
    strict_1.default.deepEqual([s.allow, s.deny], [[], ['Bash(curl:*)', 'WebFetch']], 'allowManagedPermissionRulesOnly from a drop-in: only the managed rules');
    strict_1.default.deepEqual(s.hooks?.Stop?.map((m) => m.hooks.map((h) => h.command)), [['a.sh'], ['b.sh']], 'disableAllHooks outside managed keeps every managed hook');
    put((0, node_path_1.join)(etc, 'managed-settings.d', '30-bad.json'), '{"model": }');
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), /managed-settings\.d\/30-bad\.json is not valid JSON at line 1 column 11/);
});
//# sourceMappingURL=settings-reference.test.js.map