// Unit: where Temporal connection settings come from (explicit > env > defaults).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConnectionConfig } from '../../src/temporal/service/connection';

test('unit: defaults are localhost:7233, namespace default, plain text', () => {
  const c = loadConnectionConfig({}, {});
  assert.equal(c.address, 'localhost:7233');
  assert.equal(c.namespace, 'default');
  assert.equal(c.tls, false);
  assert.equal(c.apiKey, undefined);
});

test('unit: env vars are read with Temporal names', () => {
  const c = loadConnectionConfig(
    {},
    {
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_NAMESPACE: 'jobs',
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_SERVER_NAME: 'sni.example',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/ca.pem',
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/c.pem',
      TEMPORAL_TLS_CLIENT_KEY_PATH: '/k.pem',
    },
  );
  assert.equal(c.address, 'temporal.example:7233');
  assert.equal(c.namespace, 'jobs');
  assert.deepEqual(c.tls, {
    serverName: 'sni.example',
    serverCaCertPath: '/ca.pem',
    clientCertPath: '/c.pem',
    clientKeyPath: '/k.pem',
  });
});

test('unit: explicit options beat env vars', () => {
  const env = {
    TEMPORAL_ADDRESS: 'env:1',
    TEMPORAL_NAMESPACE: 'env-ns',
    TEMPORAL_API_KEY: 'env-key',
    TEMPORAL_TLS_SERVER_NAME: 'env-sni',
  };
  const c = loadConnectionConfig(
    { address: 'opt:2', namespace: 'opt-ns', apiKey: 'opt-key', tls: { serverName: 'opt-sni' } },
    env,
  );
  assert.equal(c.address, 'opt:2');
  assert.equal(c.namespace, 'opt-ns');
  assert.equal(c.apiKey, 'opt-key');
  assert.deepEqual(c.tls, { serverName: 'opt-sni' });
  assert.equal(loadConnectionConfig({ tls: false }, env).tls, false);
});

test('unit: an API key or a TLS file turns TLS on unless TEMPORAL_TLS=false', () => {
  assert.deepEqual(loadConnectionConfig({}, { TEMPORAL_API_KEY: 'k' }).tls, {});
  assert.deepEqual(loadConnectionConfig({}, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/ca.pem' }).tls, {
    serverCaCertPath: '/ca.pem',
  });
  assert.equal(loadConnectionConfig({}, { TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' }).tls, false);
});

test('unit: bad TLS settings are reported, not guessed', () => {
  assert.throws(() => loadConnectionConfig({}, { TEMPORAL_TLS: 'maybe' }), /TEMPORAL_TLS=maybe/);
  assert.throws(
    () => loadConnectionConfig({}, { TEMPORAL_TLS_CLIENT_CERT_PATH: '/c.pem' }),
    /TEMPORAL_TLS_CLIENT_KEY_PATH/,
  );
});
