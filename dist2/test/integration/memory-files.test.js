"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: CLAUDE.md files a Claude Code user has, through `durable-agent run` on the real dev
// server, loaded as the reference (Claude Code 2.1.197) loads them: .claude/rules, frontmatter
// and HTML comments dropped, a project file's import outside the project not followed (and said
// so), a path-conditional rule reported; `run` and `status` list what was loaded.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(async () => {
    await (0, temporal_1.closeTestEnv)();
});
async function put(path, content) {
    await node_fs_1.promises.mkdir((0, node_path_1.join)(path, '..'), { recursive: true });
    await node_fs_1.promises.writeFile(path, content);
    return path;
}
(0, node_test_1.test)('integration: `run` loads .claude/rules, drops frontmatter and HTML comments, does not follow a project import out of the project; `run` and `status` list the files', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        const home = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-memory-home-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            HOME: home,
            CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(home, 'no-managed-settings.json'),
            DURABLE_AGENT_MANAGED_MEMORY: (0, node_path_1.join)(home, 'no-managed-CLAUDE.md'),
        };
        const userMd = await put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'User: answer in English. @~/notes/tone.md');
        const tone = await put((0, node_path_1.join)(home, 'notes', 'tone.md'), 'Tone: terse (TONE-11).');
        await put((0, node_path_1.join)(home, 'secrets.md'), 'SECRET-TOKEN-42');
        const claudeMd = await put((0, node_path_1.join)(workDir, 'CLAUDE.md'), '# Project\nCodeword PAPAYA-5.\n<!-- maintainers: keep this short -->\nAlso @~/secrets.md\n');
        const rule = await put((0, node_path_1.join)(workDir, '.claude', 'rules', 'style.md'), '---\ndescription: code style\n---\nStyle rule GUAVA-8.\n');
        const cond = await put((0, node_path_1.join)(workDir, '.claude', 'rules', 'ts.md'), '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule LIME-2.\n');
        fake.enqueue((0, fakeAnthropic_1.textResponse)('done'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, 'go'], env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        const id = /session (\S+) started/.exec(run.stdout)?.[1];
        const files = [userMd, tone, claudeMd, rule];
        strict_1.default.ok(run.stdout.includes(`memory: ${files.join(', ')}`), run.stdout);
        strict_1.default.ok(run.stderr.includes(`warning: ${claudeMd}: @import ~/secrets.md is outside the working directory`), run.stderr);
        strict_1.default.ok(run.stderr.includes(`warning: ${cond}: a rule with paths: in its frontmatter`), run.stderr);
        const first = fake.messageRequests()[0];
        const text = JSON.stringify(first.messages[0]?.content);
        for (const piece of [
            'TONE-11',
            'PAPAYA-5',
            'GUAVA-8',
            `Contents of ${tone} (user's private global instructions for all projects)`,
            `Contents of ${rule} (project instructions, checked into the codebase)`,
        ]) {
            strict_1.default.ok(text.includes(piece), `${piece} in ${text}`);
        }
        for (const absent of ['SECRET-TOKEN-42', 'LIME-2', 'maintainers: keep this short', 'description: code style'])
            strict_1.default.ok(!text.includes(absent), `${absent} must not reach the model`);
        const st = await (0, cli_1.cli)(['status', id], env);
        strict_1.default.equal(st.code, 0, st.stderr);
        strict_1.default.ok(st.stdout.includes(`memory    ${files.join(', ')}`), st.stdout);
        await node_fs_1.promises.rm(home, { recursive: true, force: true });
    });
});
//# sourceMappingURL=memory-files.test.js.map