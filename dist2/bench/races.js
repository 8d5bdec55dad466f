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
// Check-then-open races at scale (issue 18): every scenario of test/support/races.ts, 100,000
// attempts each by default, counts printed as a table (and as JSON with --json).
//   node dist/bench/races.js [--attempts N] [--json] [--failures] [scenario substring…]
const fs = __importStar(require("node:fs"));
const races_1 = require("../test/support/races");
async function main() {
    const args = process.argv.slice(2);
    const at = args.indexOf('--attempts');
    const attempts = at === -1 ? 100_000 : Number(args[at + 1]);
    if (!Number.isInteger(attempts) || attempts < 1)
        throw new Error('--attempts takes a positive integer');
    const json = args.includes('--json');
    const filters = args.filter((a, i) => !a.startsWith('--') && i !== at + 1);
    const scenarios = races_1.RACE_SCENARIOS.filter((s) => filters.length === 0 || filters.some((f) => s.includes(f)));
    const rows = [];
    for (const s of scenarios) {
        const fx = (0, races_1.createRaceFixture)();
        const started = Date.now();
        try {
            const c = await (0, races_1.runRace)(fx, s, attempts);
            rows.push(c);
            if (!json)
                console.log(`${s.padEnd(16)} attempts ${String(c.attempts).padStart(7)}  ok ${String(c.ok).padStart(7)}  errors ${String(c.errors).padStart(7)}  wins ${String(c.wins).padStart(5)}  swaps ${String(c.flips).padStart(9)}  ${((Date.now() - started) / 1000).toFixed(0)} s${c.example ? `  e.g. ${JSON.stringify(c.example.slice(0, 120))}` : ''}`);
        }
        finally {
            fs.rmSync(fx.root, { recursive: true, force: true });
        }
    }
    if (json)
        console.log(JSON.stringify(rows, null, 2));
    else if (args.includes('--failures'))
        for (const r of rows)
            console.log(r.scenario, r.failures);
    const wins = rows.reduce((n, r) => n + r.wins, 0);
    if (!json)
        console.log(`total wins: ${wins}`);
    process.exitCode = wins === 0 ? 0 : 1;
}
main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
});
//# sourceMappingURL=races.js.map