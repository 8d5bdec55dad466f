"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the control-attack suite (issue 18), part 2 of 2: the odd rows and the check-then-open races. The suite is
// test/support/attacksControlSuite.ts.
const attacksControlSuite_1 = require("../support/attacksControlSuite");
(0, attacksControlSuite_1.registerControlSuite)(2);
//# sourceMappingURL=attacks-control-2.test.js.map