"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseSuiteArgs = parseSuiteArgs;
function parseSuiteArgs(argv, suite) {
    let size = (process.env[suite.sizeEnv] ?? 'reduced');
    let only = [...suite.parts];
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const value = () => {
            const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
            if (!v)
                throw new Error(`${a.split('=')[0]} needs a value`);
            return v;
        };
        if (a === '--size' || a.startsWith('--size='))
            size = value();
        else if (a === '--only' || a.startsWith('--only='))
            only = value().split(',');
        else if (a === '--help' || a === '-h') {
            console.log(suite.usage);
            process.exit(0);
        }
        else
            throw new Error(`unknown argument ${a} (try --help)`);
    }
    if (size !== 'reduced' && size !== 'full')
        throw new Error(`--size must be reduced or full, not "${size}"`);
    for (const o of only)
        if (!suite.parts.includes(o))
            throw new Error(`--only: unknown ${suite.partName} "${o}"; use ${suite.parts.join(', ')}`);
    return { size, only };
}
//# sourceMappingURL=args.js.map