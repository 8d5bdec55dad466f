import type { Autonomy } from './autonomy';
export declare function waitDetails(a: Autonomy | undefined, until: number | undefined, reason: string): string;
