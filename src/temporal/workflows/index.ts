// Workflow entry point for the worker's bundle: only sandbox-safe exports live here.
export { sessionWorkflow } from './session';
export { turnWorkflow } from './turn';
export { modelGateWorkflow } from './modelGate';
