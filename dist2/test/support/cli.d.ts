import './isolatedHome';
export declare function cli(args: string[], env?: Record<string, string | undefined>, timeoutMs?: number, 
/** Standard input (default: none, as /dev/null). */
input?: string): Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
}>;
