// Merging indexes: each index's term weights are rescaled to the catalogue's inverse document
// frequency, within a bound (IDF_RESCALE), so a word in every endpoint of one API does not decide
// which of that API's endpoints comes first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { IDF_RESCALE } from '../../src/catalog/weights.ts';
import { type EndpointInput, spec } from './fixtures.ts';

describe('rescaled term weights across indexes', () => {
  it('keep a word every endpoint of an API holds from outweighing what the query asks of it', () => {
    assert.ok(IDF_RESCALE.max >= 1);
    // Every path of `calls` carries the account's `Sid`; one summary also says "SID".
    const calls: EndpointInput[] = [
      { method: 'GET', path: '/Accounts/{AccountSid}/Messages/{Sid}', summary: 'Fetch a message', params: ['AccountSid', 'Sid'] },
      { method: 'POST', path: '/Accounts/{AccountSid}/Calls/{CallSid}/Messages', summary: 'Create a message for the given call SID', params: ['AccountSid', 'CallSid'] },
    ];
    for (let i = 0; i < 40; i++) calls.push({ method: 'GET', path: `/Accounts/{AccountSid}/Thing${i}s/{Sid}`, summary: `Fetch a thing ${i}`, params: ['AccountSid', 'Sid'] });
    const others: EndpointInput[] = [];
    for (let i = 0; i < 400; i++) others.push({ method: 'GET', path: `/widgets${i}/{id}`, summary: `Get widget ${i}`, params: ['id'] });
    const catalog = new Catalog([spec('calls', calls), spec('widgets', others)]);
    const first = catalog.search('get a message by its sid', {}, 5)[0]?.endpoint.id;
    assert.equal(first, 'calls:GET:/Accounts/{AccountSid}/Messages/{Sid}');
  });
});
