"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ProcSampler = void 0;
exports.pct = pct;
exports.mapLimit = mapLimit;
// Measuring helpers of the load run (bench/load.ts): /proc sampling, percentiles, bounded parallelism.
const node_fs_1 = require("node:fs");
/** /proc sampling of a process: peak RSS and CPU seconds used between start() and stop(). */
class ProcSampler {
    pid;
    peakRss = 0;
    cpu0 = 0;
    cpu1 = 0;
    timer;
    constructor(pid) {
        this.pid = pid;
    }
    cpuSeconds() {
        try {
            const f = (0, node_fs_1.readFileSync)(`/proc/${this.pid}/stat`, 'utf8');
            const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
            return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100/s)
        }
        catch {
            return this.cpu1;
        }
    }
    sample() {
        try {
            const m = /VmRSS:\s+(\d+) kB/.exec((0, node_fs_1.readFileSync)(`/proc/${this.pid}/status`, 'utf8'));
            if (m)
                this.peakRss = Math.max(this.peakRss, Number(m[1]) * 1024);
        }
        catch {
            // gone
        }
        this.cpu1 = this.cpuSeconds();
    }
    start() {
        this.cpu0 = this.cpuSeconds();
        this.sample();
        this.timer = setInterval(() => this.sample(), 500);
    }
    stop() {
        clearInterval(this.timer);
        this.sample();
        return { peakRssMB: this.peakRss / 1024 / 1024, cpuSeconds: this.cpu1 - this.cpu0 };
    }
}
exports.ProcSampler = ProcSampler;
function pct(sorted, p) {
    if (sorted.length === 0)
        return NaN;
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
async function mapLimit(items, limit, fn) {
    const out = new Array(items.length);
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
        while (next < items.length) {
            const i = next++;
            out[i] = await fn(items[i]);
        }
    }));
    return out;
}
//# sourceMappingURL=loadStats.js.map