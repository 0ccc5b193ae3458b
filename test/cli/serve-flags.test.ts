// `svc serve`'s flags over svc.yaml's serve section (src/cli/serve.ts applyServeFlags), from their
// contract: --transport stdio, http or its older name sse; --host any address, an IPv6 one in
// brackets taken bare as listen() takes it; --port a whole number from 0 to 65535. Anything else
// is a usage error that names the flag and what it takes, and leaves the config as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyServeFlags } from '../../src/cli/serve.ts';
import { parseConfig, type Config } from '../../src/config/index.ts';
import { SvcError } from '../../src/model/errors.ts';
import { petsProject } from '../config/helpers.ts';

const pets = petsProject();
const base = (): Promise<Config> => parseConfig('specs: [specs/pets.yaml]\n', pets.config());

function usageError(run: () => unknown, flag: string): void {
  assert.throws(run, (error: unknown) => error instanceof SvcError && error.code === 'bad-flag' && error.message.includes(flag));
}

describe('svc serve flags', () => {
  it('--transport takes stdio and http, and sse as http; anything else is a usage error naming it', async () => {
    const config = await base();
    assert.equal(applyServeFlags(config, { transport: 'stdio' }).serve.transport, 'stdio');
    assert.equal(applyServeFlags(config, { transport: 'http' }).serve.transport, 'http');
    assert.equal(applyServeFlags(config, { transport: 'sse' }).serve.transport, 'http');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean()).filter((v) => v !== 'stdio' && v !== 'http' && v !== 'sse'), (v) => {
        usageError(() => applyServeFlags(config, { transport: v }), '--transport');
      }),
      { numRuns: 50 },
    );
  });

  it('--host takes any address, an IPv6 one in brackets bare; an empty or non-text host is a usage error', async () => {
    const config = await base();
    assert.equal(applyServeFlags(config, { host: '0.0.0.0' }).serve.host, '0.0.0.0');
    assert.equal(applyServeFlags(config, { host: '[::1]' }).serve.host, '::1');
    assert.equal(applyServeFlags(config, { host: '::1' }).serve.host, '::1');
    usageError(() => applyServeFlags(config, { host: '' }), '--host');
    usageError(() => applyServeFlags(config, { host: 8080 }), '--host');
  });

  it('--port takes a whole number from 0 to 65535, as digits or a number; anything else (an empty value, hex, a fraction) is a usage error', async () => {
    const config = await base();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65_535 }), fc.boolean(), (port, asText) => {
        assert.equal(applyServeFlags(config, { port: asText ? String(port) : port }).serve.port, port);
      }),
      { numRuns: 50 },
    );
    for (const port of [0, 65_535, '0', '65535']) assert.equal(applyServeFlags(config, { port }).serve.port, Number(port), String(port));
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 65_536 }), fc.integer({ max: -1 }), fc.double({ noInteger: true }), fc.constantFrom('http', '', ' ', '1e9', 'NaN', '0x50', '8.0', '-1', '65536', true)), (port) => {
        usageError(() => applyServeFlags(config, { port }), '--port');
      }),
      { numRuns: 50 },
    );
  });

  it('flags not given leave the config\'s serve section as it was, and the config itself is not changed', async () => {
    const config = await base();
    const before = JSON.stringify(config.serve);
    assert.deepEqual(applyServeFlags(config, {}).serve, config.serve);
    applyServeFlags(config, { transport: 'http', host: '[::1]', port: 1 });
    assert.equal(JSON.stringify(config.serve), before);
  });
});
