// A token endpoint's failure is told with the status line as the server sent it: the reason
// phrase when there is one, nothing in its place when the server sent none. A raw TCP server on
// loopback writes the status lines, since node:http always adds a reason phrase.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { InvokeError } from '../../src/invoke/errors.ts';
import { TokenCache } from '../../src/invoke/oauth2.ts';

let server: Server;
let origin: string;

before(async () => {
  server = createServer((socket) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      head += d;
      if (!head.includes('\r\n\r\n')) return;
      // The reason phrase is the request path's last segment (`/token/-` for none).
      const reason = /^POST \/token\/(\S+)/.exec(head)?.[1] ?? '';
      socket.end(`HTTP/1.1 400 ${reason === '-' ? '' : decodeURIComponent(reason)}\r\ncontent-type: text/plain\r\ncontent-length: 7\r\nconnection: close\r\n\r\nno luck`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(reason: string): Promise<string> {
  const creds = { tokenUrl: `${origin}/token/${reason}`, clientId: 'c', clientSecret: 'reason-secret-1a2b3c', scopes: [], timeoutMs: 5000, key: 'specs[0].auth' };
  try {
    await new TokenCache().get(creds);
  } catch (err) {
    assert.ok(err instanceof InvokeError, String(err));
    return err.message;
  }
  assert.fail('expected the token request to fail');
}

test('a failed token request quotes the status and its reason phrase, then the body', async () => {
  assert.equal(await failure('Not%20Today'), `OAuth2 token request to ${origin}/token/Not%20Today failed: HTTP 400 Not Today: no luck`);
});

test('a status line without a reason phrase shows the status alone', async () => {
  assert.equal(await failure('-'), `OAuth2 token request to ${origin}/token/- failed: HTTP 400: no luck`);
});
