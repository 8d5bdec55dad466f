// Reading Temporal's errors in one place, by class and gRPC status — never by `.name` strings.
import { WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';

/** gRPC status NOT_FOUND (the server's answer for an unknown workflow id or run id). */
const GRPC_NOT_FOUND = 5;

/** True when the server says there is no such workflow (or run). */
export function isWorkflowNotFound(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  return isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND;
}
