// One rule for a host written in brackets (src/model/host.ts bareHost), which the config, the serve
// flags, the HTTP front's bind and its Host/Origin guard all use: `[address]` is the address, and
// anything else, `[]` among them, is kept as written (bare, `[]` would be the empty host, which
// binds every interface and which the guard reads as a wildcard).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { bareHost } from '../../src/model/host.ts';

it('takes the brackets off an address written in them, and keeps every other host as written', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), (inner) => {
      assert.equal(bareHost(`[${inner}]`), inner);
    }),
  );
  fc.assert(
    fc.property(fc.string(), (host) => {
      fc.pre(!(host.length > 2 && host.startsWith('[') && host.endsWith(']')));
      assert.equal(bareHost(host), host);
    }),
  );
  for (const host of ['[]', '[', ']', '', '[::1]:80', 'fe80::1]', '[fe80::1']) assert.equal(bareHost(host), host, host);
});
