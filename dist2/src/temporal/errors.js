"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isWorkflowNotFound = isWorkflowNotFound;
// Reading Temporal's errors in one place, by class and gRPC status — never by `.name` strings.
const client_1 = require("@temporalio/client");
/** gRPC status NOT_FOUND (the server's answer for an unknown workflow id or run id). */
const GRPC_NOT_FOUND = 5;
/** True when the server says there is no such workflow (or run). */
function isWorkflowNotFound(err) {
    if (err instanceof client_1.WorkflowNotFoundError)
        return true;
    return (0, client_1.isGrpcServiceError)(err) && err.code === GRPC_NOT_FOUND;
}
//# sourceMappingURL=errors.js.map