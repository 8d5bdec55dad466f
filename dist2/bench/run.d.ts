export interface Row {
    measure: string;
    inProcess: string;
    temporal: string;
    result: string;
    target: string;
    verdict: 'PASS' | 'MISS' | 'info' | 'n/a';
}
export declare function renderTable(rows: Row[]): string;
