"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isCI = isCI;
exports.findExecutable = findExecutable;
exports.reportSkip = reportSkip;
exports.requireSystemPackage = requireSystemPackage;
// "This test requires system package X": on a developer's machine without it, the test SKIPS
// and the test runner prints one line naming what was skipped and what to install; under CI
// (CI=true) a missing package FAILS the test, so CI never goes green by skipping.
//
//   const chromium = requireSystemPackage({ command: '/usr/bin/chromium', debianPackage: 'chromium', usedBy: 'the UI test' });
//   test('…', { skip: chromium.skip }, () => { chromium.assert(); … });
//
// `skip` is false when the package is there or under CI; `assert()` then fails with the install
// hint when it is missing. Every skip is appended to $DURABLE_AGENT_SKIPPED_FILE (set by
// scripts/run-tests.mjs, which prints them in one line at the end of the run).
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
function isCI() {
    const ci = process.env.CI;
    return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}
/** An executable file at `command` (absolute) or on PATH. */
function findExecutable(command) {
    const executable = (p) => {
        try {
            (0, node_fs_1.accessSync)(p, node_fs_1.constants.X_OK);
            return true;
        }
        catch {
            return false;
        }
    };
    if ((0, node_path_1.isAbsolute)(command))
        return executable(command) ? command : undefined;
    for (const dir of (process.env.PATH ?? '').split(node_path_1.delimiter)) {
        if (dir && executable((0, node_path_1.join)(dir, command)))
            return (0, node_path_1.join)(dir, command);
    }
    return undefined;
}
/** Records a skip for the runner's summary line (no-op when the file runs on its own). */
function reportSkip(line) {
    const file = process.env.DURABLE_AGENT_SKIPPED_FILE;
    if (!file)
        return;
    try {
        (0, node_fs_1.appendFileSync)(file, `${line}\n`);
    }
    catch {
        // The summary is a courtesy: never fail a test over it.
    }
}
function requireSystemPackage(spec) {
    const path = spec.probe ? spec.probe() : findExecutable(spec.command);
    const hint = `${spec.command} not found: install Debian's ${spec.debianPackage} (apt-get install -y ${spec.debianPackage}; .ci/run does this), needed by ${spec.usedBy}`;
    let skip = false;
    if (spec.optOutEnv && process.env[spec.optOutEnv] === '1') {
        skip = `${spec.optOutEnv}=1`;
    }
    else if (!path && !isCI()) {
        skip = hint;
        reportSkip(`${spec.usedBy} (${spec.command} missing: apt-get install -y ${spec.debianPackage})`);
    }
    return {
        found: path !== undefined,
        ...(path ? { path } : {}),
        skip,
        hint,
        assert() {
            if (!path)
                throw new Error(`${hint}${isCI() ? ' — CI=true: a missing system package fails the test instead of skipping it' : ''}`);
        },
    };
}
//# sourceMappingURL=systemPackages.js.map