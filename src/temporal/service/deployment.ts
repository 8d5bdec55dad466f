// Worker Deployment Versioning at the edge (docs/deployment.md "Upgrading with deployment
// versions"): make a build the current version of its deployment, and read how far an old build
// has drained. The SDK 1.24 client has no wrapper for these yet; they are the WorkflowService calls
// `temporal worker deployment set-current-version` / `describe-version` make.
import type { Client } from '@temporalio/client';

export interface DeploymentVersion {
  deploymentName: string;
  buildId: string;
}

/**
 * Makes `version` current: new sessions and the next workflow task of every AUTO_UPGRADE session
 * go to it; PINNED turns stay where they started. The server refuses (FAILED_PRECONDITION) until
 * the build's workers have polled every task queue of the current version, so this retries for
 * `timeoutMs` — start the new workers first.
 */
export async function setCurrentDeploymentVersion(
  client: Client,
  version: DeploymentVersion,
  opts: { namespace?: string; identity?: string; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: opts.namespace ?? client.options.namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: opts.identity ?? 'durable-agent',
      });
      return;
    } catch (err) {
      // 9: FAILED_PRECONDITION (the version's pollers are not seen yet); 5: NOT_FOUND (no such deployment yet).
      const code = (err as { code?: number }).code;
      if ((code !== 9 && code !== 5) || Date.now() > deadline)
        throw new Error(
          `could not make ${version.deploymentName}/${version.buildId} the current version: ${(err as Error).message}`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export type VersionStatus = 'inactive' | 'current' | 'ramping' | 'draining' | 'drained' | 'unknown';
const STATUSES: Record<number, VersionStatus> = {
  1: 'inactive',
  2: 'current',
  3: 'ramping',
  4: 'draining',
  5: 'drained',
};

/**
 * Where a version stands: `draining` while workflows pinned to it (turns) may still be open,
 * `drained` once none is — then its workers may stop. The server re-checks a draining version
 * periodically (minutes), so `drained` comes a while after the last turn ended.
 */
export async function deploymentVersionStatus(
  client: Client,
  version: DeploymentVersion,
  namespace = client.options.namespace,
): Promise<VersionStatus> {
  const r = await client.workflowService.describeWorkerDeploymentVersion({ namespace, deploymentVersion: version });
  return STATUSES[Number(r.workerDeploymentVersionInfo?.status ?? 0)] ?? 'unknown';
}
