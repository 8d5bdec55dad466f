"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: settings files — user then project, lists concatenated, scalars overridden, errors named.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const settings_1 = require("../../src/cli/settings");
function files(user, project) {
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-settings-'));
    const cwd = (0, node_path_1.join)(dir, 'repo');
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(cwd, '.durable-agent'), { recursive: true });
    const userPath = (0, node_path_1.join)(dir, 'user.json');
    const projectPath = (0, node_path_1.join)(cwd, '.durable-agent', 'settings.json');
    if (user !== undefined)
        (0, node_fs_1.writeFileSync)(userPath, typeof user === 'string' ? user : JSON.stringify(user));
    if (project !== undefined)
        (0, node_fs_1.writeFileSync)(projectPath, typeof project === 'string' ? project : JSON.stringify(project));
    return { cwd, paths: [userPath, projectPath] };
}
(0, node_test_1.test)('unit: settings merge user then project', () => {
    const { cwd, paths } = files({
        model: 'claude-user',
        permissions: { allow: ['Read'], deny: ['Bash(rm:*)'], defaultMode: 'dontAsk' },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'u.sh' }] }] },
    }, {
        model: 'claude-project',
        permissions: { allow: ['Bash(npm test)'], additionalDirectories: ['../shared'] },
        hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'p.sh' }] }] },
    });
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(cwd, '..', 'shared'));
    const s = (0, settings_1.loadSettings)(cwd, paths);
    strict_1.default.equal(s.model, 'claude-project');
    strict_1.default.equal(s.mode, 'dontAsk');
    strict_1.default.deepEqual(s.allow, ['Read', 'Bash(npm test)']);
    strict_1.default.deepEqual(s.deny, ['Bash(rm:*)']);
    strict_1.default.deepEqual(s.additionalDirectories, [(0, node_path_1.join)(cwd, '..', 'shared')]);
    strict_1.default.deepEqual(s.hooks?.PreToolUse?.map((m) => m.matcher), ['Bash', 'Edit']);
    strict_1.default.equal(s.sources.length, 2);
});
(0, node_test_1.test)('unit: no settings files is fine', () => {
    const { cwd, paths } = files(undefined, undefined);
    const s = (0, settings_1.loadSettings)(cwd, paths);
    strict_1.default.deepEqual([s.allow, s.ask, s.deny, s.sources], [[], [], [], []]);
    strict_1.default.equal(s.mode, undefined);
});
(0, node_test_1.test)('unit: bad settings name the file and the problem', () => {
    const bad = [
        ['{ not json', /not valid JSON/],
        ['[]', /must hold a JSON object/],
        [{ permissions: { defaultMode: 'yolo' } }, /defaultMode "yolo" is not one of/],
        [{ permissions: { allow: 'Read' } }, /permissions.allow must be a list of strings/],
    ];
    for (const [content, pattern] of bad) {
        const { cwd, paths } = files(undefined, content);
        strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd, paths), (err) => err instanceof settings_1.SettingsError && pattern.test(err.message) && err.message.includes('settings.json'));
    }
});
(0, node_test_1.test)('unit: a malformed rule is an error naming the file and the key', () => {
    const { cwd, paths } = files(undefined, {
        permissions: { allow: ['Read'], deny: ['Bash(npm test)', 'Bash(rm -rf *'] },
    });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(cwd, paths), (err) => err instanceof settings_1.SettingsError &&
        err.message.startsWith(paths[1]) &&
        /permissions\.deny\[1\] is malformed: .*missing closing parenthesis/.test(err.message));
    const other = files(undefined, { permissions: { ask: ['Bad Tool Name(x)'] } });
    strict_1.default.throws(() => (0, settings_1.loadSettings)(other.cwd, other.paths), /permissions\.ask\[0\] is malformed/);
});
(0, node_test_1.test)('unit: unknown and unsupported keys are warnings naming the file and the key; nothing is dropped silently', () => {
    const { cwd, paths } = files({ colour: 'blue', env: { FOO: '1' } }, {
        permissions: { allow: ['Read'], blockReadsOutsideWorkingDirectories: true },
        statusLine: { type: 'command' },
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
    });
    const s = (0, settings_1.loadSettings)(cwd, paths);
    strict_1.default.deepEqual(s.allow, ['Read']);
    strict_1.default.equal(s.warnings.length, 3, s.warnings.join('\n'));
    strict_1.default.ok(s.warnings.some((w) => w.startsWith(`${paths[0]}: colour `) && /not a known setting/.test(w)));
    strict_1.default.ok(s.warnings.some((w) => w.startsWith(`${paths[0]}: env (FOO) `) && /Claude Code setting that durable-agent does not support/.test(w)));
    strict_1.default.ok(s.warnings.some((w) => w.startsWith(`${paths[1]}: permissions.blockReadsOutsideWorkingDirectories `)));
    // A key of the interactive UI only: a note naming the file and key, not a warning.
    strict_1.default.deepEqual(s.notes.map((n) => n.split(' only ')[0]), [`${paths[1]}: statusLine`]);
});
(0, node_test_1.test)('unit: disableBypassPermissionsMode and sandbox settings load; bad values are errors naming file and key', () => {
    const { cwd, paths } = files({ sandbox: { network: { allowedDomains: ['github.com'] }, filesystem: { denyRead: ['~/.kube'] } } }, {
        permissions: { disableBypassPermissionsMode: 'disable' },
        sandbox: { autoAllowBashIfSandboxed: false, excludedCommands: ['docker'], filesystem: { allowWrite: ['build'] } },
    });
    const s = (0, settings_1.loadSettings)(cwd, paths);
    strict_1.default.equal(s.disableBypassPermissionsMode, true);
    strict_1.default.deepEqual(s.sandbox, {
        network: { allowedDomains: ['github.com'] },
        filesystem: { denyRead: ['~/.kube'], allowWrite: [(0, node_path_1.join)(cwd, 'build')] },
        autoAllowBashIfSandboxed: false,
        excludedCommands: ['docker'],
    });
    for (const [content, pattern] of [
        [
            { permissions: { disableBypassPermissionsMode: true } },
            /permissions\.disableBypassPermissionsMode must be "disable"/,
        ],
        [{ sandbox: { enabled: 'on' } }, /sandbox\.enabled must be true or false/],
        [
            { sandbox: { network: { allowedDomain: ['x.com'] } } },
            /sandbox\.network\.allowedDomain is not a sandbox setting/,
        ],
        [{ sandbox: { credentials: {} } }, /sandbox\.credentials is not supported/],
        [{ model: 42 }, /model must be a model name/],
    ]) {
        const f = files(undefined, content);
        strict_1.default.throws(() => (0, settings_1.loadSettings)(f.cwd, f.paths), (err) => err instanceof settings_1.SettingsError && pattern.test(err.message) && err.message.includes(f.paths[1]), JSON.stringify(content));
    }
});
//# sourceMappingURL=settings.test.js.map