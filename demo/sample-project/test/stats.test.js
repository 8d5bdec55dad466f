const assert = require('node:assert');
const { mean, median } = require('../src/stats');

assert.strictEqual(mean([1, 2, 3]), 2);
assert.strictEqual(median([3, 1, 2]), 2);
assert.strictEqual(median([4, 1, 3, 2]), 2.5);
console.log('all tests passed');
