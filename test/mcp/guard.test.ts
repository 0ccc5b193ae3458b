// Host/Origin and token checks of the HTTP transports, case by case (the e2e tests cover them on a live server).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { checkHostAndOrigin, hostnameOf, isLoopbackHost, tokenChecker } from '../../src/mcp/guard.ts';

const req = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const LOOPBACK = { bindHost: '127.0.0.1', allowedOrigins: [] as string[] };

describe('Host and Origin checks', () => {
  it('accepts the local names with any port on a loopback bind', () => {
    for (const host of ['127.0.0.1:7331', 'localhost:7331', '[::1]:7331', 'localhost', 'LOCALHOST:1']) {
      assert.equal(checkHostAndOrigin(req({ host }), LOOPBACK), undefined, host);
    }
  });

  it('refuses a foreign or missing Host on a loopback bind (DNS rebinding)', () => {
    assert.match(checkHostAndOrigin(req({ host: 'evil.example:7331' }), LOOPBACK) ?? '', /Host "evil.example:7331" is not allowed/);
    assert.match(checkHostAndOrigin(req({ host: '127.0.0.1.evil.example' }), LOOPBACK) ?? '', /not allowed/);
    assert.match(checkHostAndOrigin(req({}), LOOPBACK) ?? '', /missing Host/);
  });

  it('accepts local origins and the configured ones, refuses others and "null"', () => {
    const policy = { bindHost: '127.0.0.1', allowedOrigins: ['https://app.example'] };
    const host = '127.0.0.1:7331';
    assert.equal(checkHostAndOrigin(req({ host, origin: 'http://localhost:3000' }), policy), undefined);
    assert.equal(checkHostAndOrigin(req({ host, origin: 'http://[::1]:3000' }), policy), undefined);
    assert.equal(checkHostAndOrigin(req({ host, origin: 'https://app.example' }), policy), undefined);
    assert.match(checkHostAndOrigin(req({ host, origin: 'https://app.example.evil' }), policy) ?? '', /Origin/);
    assert.match(checkHostAndOrigin(req({ host, origin: 'null' }), policy) ?? '', /Origin "null"/);
    assert.match(checkHostAndOrigin(req({ host, origin: 'http://evil.example' }), policy) ?? '', /Origin/);
  });

  it('accepts its own address as Host on a non-loopback bind', () => {
    const policy = { bindHost: '10.1.2.3', allowedOrigins: [] };
    assert.equal(checkHostAndOrigin(req({ host: '10.1.2.3:7331' }), policy), undefined);
    assert.match(checkHostAndOrigin(req({ host: 'other.example' }), policy) ?? '', /not allowed/);
  });

  it('reads host names out of Host headers, IPv6 included', () => {
    assert.equal(hostnameOf('[::1]:80'), '::1');
    assert.equal(hostnameOf('Example.COM:8080'), 'example.com');
    assert.equal(hostnameOf('localhost'), 'localhost');
    assert.equal(isLoopbackHost('127.8.9.10'), true);
    assert.equal(isLoopbackHost('0.0.0.0'), false);
  });
});

describe('bearer token check', () => {
  const ok = tokenChecker('s3cret-token');
  it('accepts the exact token', () => {
    assert.equal(ok(req({ authorization: 'Bearer s3cret-token' })), true);
    assert.equal(ok(req({ authorization: 'bearer s3cret-token' })), true);
  });
  it('refuses a missing, wrong, prefixed or differently shaped token', () => {
    assert.equal(ok(req({})), false);
    assert.equal(ok(req({ authorization: 'Bearer s3cret-toke' })), false);
    assert.equal(ok(req({ authorization: 'Bearer s3cret-token2' })), false);
    assert.equal(ok(req({ authorization: 'Basic s3cret-token' })), false);
    assert.equal(ok(req({ authorization: 's3cret-token' })), false);
  });
});
