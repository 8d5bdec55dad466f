"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: Claude Code's settings files (user, shared project, local project, managed) with the
// reference's precedence and merge rules, and CLAUDE.md memory discovery with @imports.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const settings_1 = require("../../src/cli/settings");
const claudeMd_1 = require("../../src/memory/claudeMd");
const memory_1 = require("../../src/engine/memory");
const saved = { ...process.env };
let root = '';
let cwd = '';
let home = '';
function put(path, content) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
}
(0, node_test_1.beforeEach)(() => {
    root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-claude-config-'));
    home = (0, node_path_1.join)(root, 'home');
    cwd = (0, node_path_1.join)(root, 'work', 'repo');
    (0, node_fs_1.mkdirSync)(cwd, { recursive: true });
    (0, node_fs_1.mkdirSync)(home, { recursive: true });
    process.env.CLAUDE_CONFIG_DIR = (0, node_path_1.join)(home, '.claude');
    process.env.DURABLE_AGENT_HOME = (0, node_path_1.join)(home, '.durable-agent');
    process.env.DURABLE_AGENT_MANAGED_SETTINGS = (0, node_path_1.join)(root, 'etc', 'managed-settings.json');
    process.env.DURABLE_AGENT_MANAGED_MEMORY = (0, node_path_1.join)(root, 'etc', 'CLAUDE.md');
});
(0, node_test_1.afterEach)(() => {
    for (const k of [
        'CLAUDE_CONFIG_DIR',
        'DURABLE_AGENT_HOME',
        'DURABLE_AGENT_MANAGED_SETTINGS',
        'DURABLE_AGENT_MANAGED_MEMORY',
    ]) {
        if (saved[k] === undefined)
            delete process.env[k];
        else
            process.env[k] = saved[k];
    }
});
(0, node_test_1.test)('unit: settings sources in the reference order: user < project < local < managed, durable-agent files beside their scope', () => {
    const s = (0, settings_1.settingsSources)(cwd);
    strict_1.default.deepEqual(s.map((x) => [x.scope, x.path]), [
        ['user', (0, node_path_1.join)(home, '.claude', 'settings.json')],
        ['user', (0, node_path_1.join)(home, '.durable-agent', 'settings.json')],
        ['project', (0, node_path_1.join)(cwd, '.claude', 'settings.json')],
        ['project', (0, node_path_1.join)(cwd, '.durable-agent', 'settings.json')],
        ['local', (0, node_path_1.join)(cwd, '.claude', 'settings.local.json')],
        ['managed', (0, node_path_1.join)(root, 'etc', 'managed-settings.json')],
    ]);
});
(0, node_test_1.test)('unit: scalars from the highest file that sets them, lists concatenated over every file', () => {
    const user = put((0, node_path_1.join)(home, '.claude', 'settings.json'), {
        model: 'm-user',
        maxTokens: 100,
        permissions: { allow: ['Read'], defaultMode: 'dontAsk' },
    });
    const shared = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), {
        model: 'm-shared',
        permissions: { deny: ['Bash(rm:*)'], allow: ['Grep'] },
    });
    const local = put((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), {
        model: 'm-local',
        permissions: { allow: ['Bash(npm test)'], ask: ['Write'] },
    });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.deepEqual(s.sources, [user, shared, local]);
    strict_1.default.equal(s.model, 'm-local');
    strict_1.default.equal(s.maxTokens, 100);
    strict_1.default.equal(s.mode, 'dontAsk');
    strict_1.default.deepEqual(s.allow, ['Read', 'Grep', 'Bash(npm test)']);
    strict_1.default.deepEqual(s.deny, ['Bash(rm:*)']);
    strict_1.default.deepEqual(s.ask, ['Write']);
    strict_1.default.deepEqual(s.managed, {});
    // A .durable-agent project file sits above the shared Claude Code file, below the local one.
    put((0, node_path_1.join)(cwd, '.durable-agent', 'settings.json'), { model: 'm-da', maxTokens: 200 });
    const t = (0, settings_1.loadSettings)(cwd);
    strict_1.default.equal(t.model, 'm-local');
    strict_1.default.equal(t.maxTokens, 200);
});
(0, node_test_1.test)('unit: managed settings win over every file and are reported as such; their managed-only keys apply', () => {
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), {
        model: 'm-shared',
        permissions: { allow: ['Bash(ls)'], deny: ['Read(./secret)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'p.sh' }] }] },
    });
    put((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), { model: 'm-local', allowManagedPermissionRulesOnly: true });
    const managed = put((0, node_path_1.join)(root, 'etc', 'managed-settings.json'), {
        model: 'm-managed',
        permissions: { deny: ['WebFetch'], defaultMode: 'default' },
        allowManagedPermissionRulesOnly: true,
        allowManagedHooksOnly: true,
    });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.equal(s.model, 'm-managed');
    strict_1.default.deepEqual(s.managed, { model: 'm-managed', mode: 'default', path: managed });
    strict_1.default.equal(s.managedRulesOnly, true);
    strict_1.default.deepEqual([s.allow, s.ask, s.deny], [[], [], ['WebFetch']]);
    strict_1.default.equal(s.hooks, undefined, 'allowManagedHooksOnly: the project hook is dropped');
    strict_1.default.ok(s.warnings.some((w) => w.startsWith((0, node_path_1.join)(cwd, '.claude', 'settings.local.json') + ': allowManagedPermissionRulesOnly ') &&
        /only in the managed settings/.test(w)), s.warnings.join('\n'));
});
(0, node_test_1.test)('unit: disableAllHooks drops the hooks of the files (not managed hooks when set outside them)', () => {
    const hook = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x.sh' }] }] };
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { hooks: hook });
    put((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), { disableAllHooks: true });
    strict_1.default.equal((0, settings_1.loadSettings)(cwd).hooks, undefined);
    put((0, node_path_1.join)(root, 'etc', 'managed-settings.json'), {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'm.sh' }] }] },
    });
    strict_1.default.deepEqual(Object.keys((0, settings_1.loadSettings)(cwd).hooks ?? {}), ['Stop']);
    put((0, node_path_1.join)(cwd, '.claude', 'settings.local.json'), { disableAllHooks: 'yes' });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), (e) => e instanceof settings_1.SettingsError && e.message.includes('settings.local.json: disableAllHooks must be true or false'));
});
(0, node_test_1.test)('unit: a malformed rule in .claude/settings.json is an error naming that file and key; unknown keys warn', () => {
    const shared = put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { permissions: { deny: ['Bash(rm -rf *'] } });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd), (e) => e instanceof settings_1.SettingsError && e.message.startsWith(`${shared}: permissions.deny[0] is malformed`));
    put((0, node_path_1.join)(cwd, '.claude', 'settings.json'), { cleanupPeriodDays: 3, colour: 'x' });
    const s = (0, settings_1.loadSettings)(cwd);
    strict_1.default.ok(s.notes.some((w) => w.startsWith(`${shared}: cleanupPeriodDays only shapes `)), s.notes.join('\n'));
    strict_1.default.ok(s.warnings.some((w) => w.startsWith(`${shared}: colour `) && /not a known setting/.test(w)));
});
(0, node_test_1.test)('unit: @imports are found outside code only, after whitespace, up to the next whitespace (as the reference)', () => {
    const text = [
        'See @docs/a.md and @~/x.md, also (@./b.md).',
        'Mail me@example.com or ping @alice.',
        '`@c.md` is code',
        '```',
        '@d.md',
        '```',
        '@/abs/e.md',
        'tail @f.txt#part',
        '@my\\ file.md',
    ].join('\n');
    strict_1.default.deepEqual((0, claudeMd_1.importsOf)(text), ['docs/a.md', '~/x.md,', 'alice.', '/abs/e.md', 'f.txt', 'my file.md']);
});
(0, node_test_1.test)('unit: CLAUDE.md discovery: managed, user, parent chain root → cwd, local, imports after their importer', () => {
    const managed = put((0, node_path_1.join)(root, 'etc', 'CLAUDE.md'), 'managed rule');
    const user = put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'user rule @~/notes.md');
    const notes = put((0, node_path_1.join)(home, 'notes.md'), 'user notes');
    const parent = put((0, node_path_1.join)(root, 'work', 'CLAUDE.md'), 'parent rule');
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'project rule: see @docs/style.md\n`@not-this.md`');
    const style = put((0, node_path_1.join)(cwd, 'docs', 'style.md'), 'style: tabs @../nested/deeper.md');
    const deeper = put((0, node_path_1.join)(cwd, 'nested', 'deeper.md'), 'deeper text');
    const dotClaude = put((0, node_path_1.join)(cwd, '.claude', 'CLAUDE.md'), 'dot-claude rule');
    const local = put((0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'local rule');
    const m = (0, claudeMd_1.loadMemory)(cwd, { home });
    strict_1.default.deepEqual(m.files.map((f) => [f.path, f.type]), [
        [managed, 'managed'],
        [user, 'user'],
        [notes, 'user'],
        [parent, 'project'],
        [project, 'project'],
        [style, 'project'],
        [deeper, 'project'],
        [dotClaude, 'project'],
        [local, 'local'],
    ]);
    strict_1.default.deepEqual(m.warnings, []);
    const reminder = (0, claudeMd_1.memoryReminder)(m.files);
    strict_1.default.match(reminder, /^<system-reminder>\n/);
    strict_1.default.ok(reminder.includes(`Contents of ${project} (project instructions, checked into the codebase):\n\nproject rule`));
    strict_1.default.ok(reminder.indexOf('parent rule') < reminder.indexOf('project rule'), 'closer files come later');
    strict_1.default.equal((0, memory_1.firstMessage)('do it', { files: [], text: reminder, sha256: 'x' }), `${reminder}\n\ndo it`);
    strict_1.default.equal((0, memory_1.firstMessage)('do it', undefined), 'do it');
});
(0, node_test_1.test)('unit: CLAUDE.md imports: missing files, cycles and chains beyond 4 imports are reported, never silently dropped', () => {
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'start @a.md @missing.md');
    put((0, node_path_1.join)(cwd, 'a.md'), 'a @b.md');
    const b = put((0, node_path_1.join)(cwd, 'b.md'), 'b @a.md');
    // A chain 1 → 2 → … → 7 from a second root file.
    put((0, node_path_1.join)(cwd, '.claude', 'CLAUDE.md'), '@../c1.md');
    for (let i = 1; i <= 7; i++)
        put((0, node_path_1.join)(cwd, `c${i}.md`), `c${i} @c${i + 1}.md`);
    const m = (0, claudeMd_1.loadMemory)(cwd, { home });
    const paths = m.files.map((f) => f.path);
    strict_1.default.ok(paths.includes((0, node_path_1.join)(cwd, 'a.md')) && paths.includes(b));
    strict_1.default.equal(paths.filter((p) => p === (0, node_path_1.join)(cwd, 'a.md')).length, 1, 'a cycle loads each file once');
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${project}: @import ${(0, node_path_1.join)(cwd, 'missing.md')} was not found`)), m.warnings.join('\n'));
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${b}: @import ${(0, node_path_1.join)(cwd, 'a.md')} is a cycle`)), m.warnings.join('\n'));
    // Depth: .claude/CLAUDE.md (0) → c1 (1) … c4 (4); c4's import of c5 is beyond the reference's limit.
    strict_1.default.ok(paths.includes((0, node_path_1.join)(cwd, `c${claudeMd_1.MAX_IMPORT_HOPS}.md`)));
    strict_1.default.ok(!paths.includes((0, node_path_1.join)(cwd, `c${claudeMd_1.MAX_IMPORT_HOPS + 1}.md`)));
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${(0, node_path_1.join)(cwd, 'c4.md')}: @import c5.md is nested more than 4 imports deep`)), m.warnings.join('\n'));
});
(0, node_test_1.test)('unit: docs/settings.md has a row for every settings key the loader knows', () => {
    const doc = (0, node_fs_1.readFileSync)((0, node_path_1.join)(__dirname, '..', '..', '..', 'docs', 'settings.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => l.startsWith('| `'));
    const missing = (0, settings_1.knownSettingsKeys)().filter((k) => !rows.some((r) => r.split('|')[1]?.includes(`\`${k}\``)));
    strict_1.default.deepEqual(missing, [], 'add these keys to the table in docs/settings.md');
});
//# sourceMappingURL=claude-config.test.js.map