import type { RefCase } from './cases';
export declare const ISSUE20_CASES: RefCase[];
