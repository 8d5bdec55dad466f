// Workflow entry point for a versioned worker's bundle (Worker Deployment Versioning,
// docs/deployment.md "Upgrading with deployment versions"): the same workflows as ./index, each
// with its versioning behaviour. A turn is PINNED: it stays on the build it started on, whose
// workers finish it, so a deploy never replays a turn on other code. A session is AUTO_UPGRADE: it
// lives for days, so it moves to the current build at its next workflow task (replaying its history
// there: its patched() ids are what make that safe), and its next turns start on that build.
// Not in ./index: an unversioned worker's completion that names a behaviour is refused by the SDK
// ("versioning behavior cannot be specified without deployment options being set with versioned
// mode") and every workflow task times out — so only a worker with a deployment bundles this file.
import { setWorkflowOptions } from '@temporalio/workflow';
import { sessionWorkflow } from './session';
import { turnWorkflow } from './turn';
import { modelGateWorkflow } from './modelGate';

setWorkflowOptions({ versioningBehavior: 'PINNED' }, turnWorkflow);
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, sessionWorkflow);

// The model queue's limiter holds one number: it moves with the current build.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, modelGateWorkflow);

export { sessionWorkflow, turnWorkflow, modelGateWorkflow };
