export interface ManifestEntry {
    file: string;
    scenario: string;
    workflowId: string;
    workflowType: string;
    runId: string;
    events: number;
}
