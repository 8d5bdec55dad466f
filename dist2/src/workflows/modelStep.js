"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newModelStepState = exports.modelActivityId = void 0;
exports.managedModelStep = managedModelStep;
const managedModelStep_1 = require("../engine/managedModelStep");
function managedModelStep(input, run, state = (0, managedModelStep_1.newModelStepState)(), outageAttempt = 1) {
    return (0, managedModelStep_1.managedModelStep)(input, run, state, outageAttempt);
}
var managedModelStep_2 = require("../engine/managedModelStep");
Object.defineProperty(exports, "modelActivityId", { enumerable: true, get: function () { return managedModelStep_2.modelActivityId; } });
Object.defineProperty(exports, "newModelStepState", { enumerable: true, get: function () { return managedModelStep_2.newModelStepState; } });
//# sourceMappingURL=modelStep.js.map