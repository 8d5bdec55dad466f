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
exports.sampleProjectDir = sampleProjectDir;
exports.runDemo = runDemo;
// `durable-agent demo`: the whole machinery in one command, on the embedded default — a dev
// server with its UI, a worker, and a session that explores and fixes a scratch copy of the
// bundled sample project (turns, a parallel batch, an approval, the audit trail).
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const client_2 = require("../client");
const follow_1 = require("./follow");
const dev_1 = require("./dev");
function sampleProjectDir() {
    for (let dir = __dirname;; dir = (0, node_path_1.resolve)(dir, '..')) {
        const candidate = (0, node_path_1.join)(dir, 'demo', 'sample-project');
        if ((0, node_fs_1.existsSync)(candidate))
            return candidate;
        if ((0, node_path_1.resolve)(dir, '..') === dir)
            throw new Error('demo/sample-project not found next to the program');
    }
}
async function runDemo(o) {
    // The scripted model answers in milliseconds; a short pause per model call lets a newcomer
    // watch the turns go by (DURABLE_AGENT_DEMO_DELAY_MS=0 for full speed).
    process.env.DURABLE_AGENT_DEMO_DELAY_MS ??= '600';
    const dev = await (0, dev_1.startDev)({ db: o.db, ...(o.defaultDb ? { defaultDb: true } : {}), port: o.port, uiPort: o.uiPort });
    const connection = await client_1.Connection.connect({ address: dev.server.address });
    try {
        const client = new client_1.Client({ connection, namespace: dev.server.namespace });
        const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'durable-agent-demo-'));
        (0, node_fs_1.cpSync)(sampleProjectDir(), work, { recursive: true });
        console.log(`ui:       ${dev.server.uiAddress}`);
        console.log(`project:  scratch copy of the sample project at ${work}`);
        const handle = await (0, client_2.startSession)(client, {
            prompt: 'Find the TODO in this project, fix it, and make the tests pass.',
            cwd: work,
            permissionMode: 'default',
            rules: { allow: ['Bash(node test/*)'], ask: [], deny: [] },
            maxTurns: 12,
            model: { model: 'scripted-demo' },
        });
        const id = handle.workflowId;
        console.log(`session:  ${id}\n          ${dev.server.uiAddress}/namespaces/${dev.server.namespace}/workflows/${encodeURIComponent(id)}`);
        const outcome = await (0, follow_1.followSession)(client, id, {
            onApprovalPending: (a) => {
                if (!o.autoApprove)
                    return;
                setTimeout(() => {
                    console.log(`  ✓ approving ${a.toolUseId} as "demo (auto-approve)" — run with --no-auto-approve to decide yourself`);
                    void (0, client_2.approveToolUse)(client, id, a.toolUseId, 'demo (auto-approve)').catch((err) => console.error(`  approval failed: ${err.message}`));
                }, 1500);
            },
        });
        const { buildAudit, formatAuditText } = await Promise.resolve().then(() => __importStar(require('../audit')));
        console.log('\naudit trail (durable-agent audit ' + id + '):');
        process.stdout.write(formatAuditText(await buildAudit(client, id)));
        console.log(`\nUI: ${dev.server.uiAddress}/namespaces/${dev.server.namespace}/workflows/${encodeURIComponent(id)}`);
        const ok = outcome.kind === 'ended' && outcome.status === 'completed';
        if (!o.exit) {
            console.log('The server and the worker keep running so you can browse the UI; Ctrl-C stops them.');
            await o.waitForSignal();
        }
        return ok ? 0 : 1;
    }
    finally {
        await connection.close().catch(() => undefined);
        await dev.stop();
    }
}
//# sourceMappingURL=demo.js.map