"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the package is usable right after `npm ci`: its `prepare` script builds (so the README's
// `npx durable-agent …` commands work without a separate build), and it is a no-op where there is
// nothing to build yet (the Dockerfile runs `npm ci` before copying tsconfig.json and src/).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const root = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'tsconfig.json')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error(`package root not found above ${__dirname}`);
    }
})();
const pkg = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(root, 'package.json'), 'utf8'));
(0, node_test_1.test)('unit: `prepare` builds with tsc, and does nothing (exit 0) where tsconfig.json is absent', async () => {
    const prepare = pkg.scripts.prepare ?? '';
    strict_1.default.match(prepare, /npm run build/);
    strict_1.default.match(pkg.scripts.build ?? '', /tsc -p tsconfig\.json/);
    const empty = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-prepare-'));
    const r = (0, node_child_process_1.spawnSync)('sh', ['-c', prepare], { cwd: empty, encoding: 'utf8' });
    strict_1.default.equal(r.status, 0, r.stderr);
});
(0, node_test_1.test)('unit: the `durable-agent` bin is what the build emits, and `npx durable-agent` runs it', () => {
    const bin = pkg.bin['durable-agent'];
    strict_1.default.ok(bin);
    strict_1.default.equal((0, node_fs_1.readFileSync)((0, node_path_1.join)(root, bin), 'utf8').split('\n')[0], '#!/usr/bin/env node');
    // npm links bins before `prepare` builds: the build itself must make the bin executable.
    strict_1.default.equal((0, node_fs_1.statSync)((0, node_path_1.join)(root, bin)).mode & 0o111, 0o111, `${bin} is not executable`);
    const r = (0, node_child_process_1.spawnSync)('npx', ['--no-install', 'durable-agent', '--version'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
    });
    strict_1.default.equal(r.status, 0, r.stderr);
    strict_1.default.equal(r.stdout.trim(), pkg.version);
});
//# sourceMappingURL=package.test.js.map