// The command line of the fault suites (test:faults, test:cluster): --size reduced|full (default
// from an environment variable) and --only a,b (a subset of the suite's parts). A bad argument is
// an error that says what to write instead.
export type SuiteSize = 'reduced' | 'full';

export function parseSuiteArgs<P extends string>(
  argv: string[],
  suite: { sizeEnv: string; parts: readonly P[]; partName: string; usage: string },
): { size: SuiteSize; only: P[] } {
  let size = (process.env[suite.sizeEnv] ?? 'reduced') as SuiteSize;
  let only: P[] = [...suite.parts];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new Error(`${a.split('=')[0]} needs a value`);
      return v;
    };
    if (a === '--size' || a.startsWith('--size=')) size = value() as SuiteSize;
    else if (a === '--only' || a.startsWith('--only=')) only = value().split(',') as P[];
    else if (a === '--help' || a === '-h') {
      console.log(suite.usage);
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  }
  if (size !== 'reduced' && size !== 'full') throw new Error(`--size must be reduced or full, not "${size}"`);
  for (const o of only)
    if (!suite.parts.includes(o))
      throw new Error(`--only: unknown ${suite.partName} "${o}"; use ${suite.parts.join(', ')}`);
  return { size, only };
}
