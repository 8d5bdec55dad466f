export type SuiteSize = 'reduced' | 'full';
export declare function parseSuiteArgs<P extends string>(argv: string[], suite: {
    sizeEnv: string;
    parts: readonly P[];
    partName: string;
    usage: string;
}): {
    size: SuiteSize;
    only: P[];
};
