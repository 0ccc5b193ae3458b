// Known items are always found, and a query whose words the catalogue holds is never left without
// an answer; a query that names an API ranks that API first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { type EndpointInput, spec } from './fixtures.ts';

/** A spec where the words of the wanted endpoints are everywhere: the common-word shortcuts kick in. */
function crowdedSpec(): ImportedSpec {
  const many: EndpointInput[] = Array.from({ length: 300 }, (_, i) => ({
    method: 'GET',
    path: `/users/{username}/widget${i}`,
    summary: `Get widget ${i} for the authenticated user`,
    operationId: `getWidget${i}`,
  }));
  return spec('crowd', [
    { method: 'GET', path: '/user', summary: 'Get the authenticated user', operationId: 'users/get-authenticated' },
    { method: 'PATCH', path: '/user', summary: 'Update the authenticated user', operationId: 'users/update-authenticated' },
    { method: 'GET', path: '/user/repos', summary: 'List repositories for the authenticated user' },
    { method: 'GET', path: '/users/{username}', summary: 'Get a user', operationId: 'users/get-by-username' },
    ...many,
  ]);
}

describe('known items', () => {
  const crowd = crowdedSpec();
  const catalog = new Catalog([spec('other', [{ method: 'GET', path: '/other', summary: 'Other things' }]), crowd]);

  it('finds every endpoint first by its exact summary, its operationId and its METHOD /path', () => {
    for (const e of crowd.endpoints) {
      for (const query of [e.summary!, e.operationId, `${e.method} ${e.path}`]) {
        if (!query) continue;
        assert.equal(catalog.search(query, {}, 5)[0]?.endpoint.id, e.id, `query "${query}"`);
        assert.equal(catalog.search(query, { spec: 'crowd' }, 5)[0]?.endpoint.id, e.id, `query "${query}" within the spec`);
      }
    }
  });

  it('answers a query of words the catalogue holds, even when every word is common and one is read as the caller', () => {
    for (const query of ['Get the authenticated user', 'the authenticated user', 'current user', 'get user for the authenticated user']) {
      assert.ok(catalog.search(query, {}, 5).length > 0, `no answer for "${query}"`);
      assert.ok(catalog.search(query, { spec: 'crowd' }, 5).length > 0, `no answer within the spec for "${query}"`);
    }
  });

  it('never leaves a query empty when one of its words is in an endpoint summary (generated queries)', () => {
    const words = ['widget', 'user', 'authenticated', 'repositories', 'update', 'get', 'list'];
    const noise = ['the', 'for', 'a', 'zzqx', 'my', 'current', 'all', 'info', 'id', 'me', 'I'];
    fc.assert(
      fc.property(fc.constantFrom(...words), fc.array(fc.constantFrom(...words, ...noise), { maxLength: 6 }), (word, rest) => {
        const query = [...rest, word].join(' ');
        return catalog.search(query, {}, 3).length > 0 && catalog.search(query, { spec: 'crowd' }, 3).length > 0;
      }),
      { numRuns: 200 },
    );
  });
});

describe('which API', () => {
  const billing = spec('billing', [
    { method: 'POST', path: '/invoices', summary: 'Create an invoice' },
    { method: 'GET', path: '/invoices', summary: 'List invoices' },
    { method: 'GET', path: '/cards', summary: 'List cards' },
  ]);
  const boards = {
    ...spec('kanban', [
      { method: 'POST', path: '/cards', summary: 'Create a card' },
      { method: 'GET', path: '/cards/{id}', summary: 'Get a card' },
      { method: 'DELETE', path: '/cards/{id}', summary: 'Delete a card' },
    ]),
    title: 'Corkboard API',
    servers: [{ url: 'https://api.pinwall.example.com/1' }],
  };
  const catalog = new Catalog([billing, boards]);

  it('ranks the named API first, named by its spec name, a title word or a word of its host', () => {
    for (const query of ['list cards in kanban', 'corkboard cards', 'cards on pinwall']) {
      assert.equal(catalog.search(query, {}, 3)[0]?.endpoint.spec, 'kanban', query);
    }
    assert.equal(catalog.search('cards', {}, 3)[0]?.endpoint.id, 'billing:GET:/cards');
    assert.equal(catalog.search('list cards in billing', {}, 3)[0]?.endpoint.id, 'billing:GET:/cards');
  });

  it('does not take a word every API description says of itself ("api", "web") as a name', () => {
    assert.equal(catalog.search('cards api', {}, 3)[0]?.endpoint.id, 'billing:GET:/cards');
  });
});

describe('a word naming a vendor\'s many APIs', () => {
  // 100 specs: 5 of one vendor (more than the 3 a rare name word may name, within the 5% a vendor's
  // group may fill), and 95 others with the better text match for "list widgets".
  const vendor = Array.from({ length: 5 }, (_, i) =>
    spec(`zorblax-part${i}`, [{ method: 'GET', path: `/part${i}/widgets`, summary: `List the widgets of part ${i} in detail` }], { title: `Zorblax part ${i}` }),
  );
  const others = Array.from({ length: 95 }, (_, i) => spec(`other${i}`, [{ method: 'GET', path: '/widgets', summary: 'List widgets' }]));

  it('ranks the vendor\'s APIs first when few other APIs use the word', () => {
    const catalog = new Catalog([...others, ...vendor]);
    const top = catalog.search('list widgets in zorblax', {}, 5);
    assert.deepEqual(
      top.map((h) => h.endpoint.spec.startsWith('zorblax-')),
      [true, true, true, true, true],
    );
  });

  it('does not when the word is as common outside the group (a thing, not a name)', () => {
    const users = others.map((o, i) =>
      i < 4 ? spec(`${o.name}-z`, [{ method: 'GET', path: '/widgets', summary: 'List widgets' }, { method: 'GET', path: '/zorblax', summary: 'Get zorblax' }]) : o,
    );
    const catalog = new Catalog([...users, ...vendor]);
    assert.equal(catalog.search('list widgets in zorblax', {}, 5)[0]?.endpoint.spec.startsWith('zorblax-'), false);
  });
});

describe('a rare name word in a large catalogue', () => {
  // 1,000 APIs: one titled "Zorblax", `users` others that use the word in their endpoints (the
  // better match), the rest unrelated. 1% of the catalogue is 10 APIs; a word 5 other APIs use is a thing.
  const catalogWith = (users: number) => {
    const named = spec('paysvc', [{ method: 'POST', path: '/sessions', summary: 'Create a session' }], { title: 'Zorblax' });
    const using = Array.from({ length: users }, (_, i) => spec(`shop${i}`, [{ method: 'POST', path: '/zorblax/sessions/{id}/refund', summary: 'Refund the zorblax session of a cart' }]));
    const rest = Array.from({ length: 999 - users }, (_, i) => spec(`filler${i}`, [{ method: 'GET', path: '/widgets', summary: 'List widgets' }]));
    return new Catalog([...rest, ...using, named]);
  };

  it('names the API while at most 3 other APIs use the word', () => {
    assert.equal(catalogWith(3).search('refund a zorblax session', {}, 3)[0]?.endpoint.spec, 'paysvc');
  });

  it('does not name it when more do, however large the catalogue', () => {
    assert.equal(catalogWith(5).search('refund a zorblax session', {}, 3)[0]?.endpoint.spec, 'shop0');
  });
});

describe('an API whose own words cover the query', () => {
  // 100 APIs with an exact "List invoices"; one of them also speaks of refunds (held by few APIs).
  const plain = Array.from({ length: 99 }, (_, i) =>
    spec(`plain${i}`, [{ method: 'GET', path: '/invoices', summary: 'List invoices' }]),
  );
  const covering = spec('covering', [
    { method: 'GET', path: '/invoices', summary: 'List all the invoices of the account, paginated' },
    { method: 'POST', path: '/refunds', summary: 'Refund a payment' },
  ]);

  const rankOf = (catalog: Catalog) => catalog.search('list invoices refund', {}, 10).findIndex((h) => h.endpoint.id === 'covering:GET:/invoices');

  it('ranks its matches above better single-word matches of other APIs, over many APIs', () => {
    const top = new Catalog([...plain, covering]).search('list invoices refund', {}, 10);
    // Both of its endpoints first, in its own order: within it, the list says two of the three words.
    assert.deepEqual(top.slice(0, 2).map((h) => h.endpoint.id), ['covering:GET:/invoices', 'covering:POST:/refunds']);
  });

  it('weighs nothing among a few APIs, where the text match decides', () => {
    assert.ok(rankOf(new Catalog([...plain.slice(0, 5), covering])) > 1);
  });
});

describe('known items whose summary quotes a path', () => {
  // Several specs share the quoted path, so a query read as naming that path alone would rank
  // their `/users/{user_id}` endpoints first.
  const quoting = (name: string, quoted: string): ImportedSpec =>
    spec(name, [
      { method: 'GET', path: '/users/{user_id}', summary: 'Get a user' },
      { method: 'GET', path: `/me/followings/{user_id}`, summary: `Returns a user followed by the caller. (use ${quoted} instead, to fetch the user)` },
      { method: 'GET', path: '/me/notes', summary: 'See /users/{user_id}/notes for notes of others' },
    ]);

  it('finds the endpoint first by its summary word for word, whatever path it quotes; a method and path alone still name the path (generated paths)', () => {
    fc.assert(
      fc.property(fc.constantFrom('/users/{user_id}', '/users/{id}', '/users', 'GET /users/{user_id}', '/me/notes'), fc.integer({ min: 1, max: 4 }), (quoted, specs) => {
        const all = Array.from({ length: specs }, (_, i) => quoting(`api${i}`, quoted));
        const catalog = new Catalog(all);
        for (const s of all) {
          for (const e of s.endpoints) {
            assert.equal(catalog.search(e.summary!, {}, 5)[0]?.endpoint.id, all[0]!.endpoints.find((x) => x.summary === e.summary)!.id, `"${e.summary}"`);
            assert.equal(catalog.search(e.summary!, { spec: s.name }, 5)[0]?.endpoint.id, e.id, `"${e.summary}" within ${s.name}`);
          }
        }
        // The query of a path alone: the path's endpoints, not a summary that quotes it.
        assert.equal(catalog.search('GET /users/{user_id}', {}, 5)[0]?.endpoint.path, '/users/{user_id}');
        return true;
      }),
      { numRuns: 30 },
    );
  });

  it('after the quoting endpoint come the quoted path\'s endpoints, each once; a method and path alone name the path even when a summary says the same words', () => {
    const catalog = new Catalog([
      spec('a', [
        { method: 'GET', path: '/users/{user_id}', summary: 'See /users/{user_id} for the user' },
        { method: 'GET', path: '/teams', summary: 'Get users user id' },
      ]),
      spec('b', [{ method: 'GET', path: '/users/{user_id}', summary: 'Get a user' }]),
    ]);
    // The summary quotes its own path: the endpoint is both the summary's and the path's, listed once.
    const ids = catalog.search('See /users/{user_id} for the user', {}, 5).map((h) => h.endpoint.id);
    assert.equal(ids[0], 'a:GET:/users/{user_id}');
    assert.ok(ids.includes('b:GET:/users/{user_id}'), ids.join(' '));
    assert.equal(new Set(ids).size, ids.length, ids.join(' '));
    // "GET /users/{user_id}" has the words of the summary "Get users user id", but names a path.
    const byPath = catalog.search('GET /users/{user_id}', {}, 5).map((h) => h.endpoint.path);
    assert.deepEqual(byPath.slice(0, 2), ['/users/{user_id}', '/users/{user_id}']);
  });
});

describe('known items written alike in several APIs', () => {
  it('puts the endpoint whose summary or operationId the query is character for character first, among those with the same words (generated case variants)', () => {
    const variants = fc.constantFrom('Create a volume', 'Create a Volume', 'create a volume', 'CREATE A VOLUME', 'Create a volume.');
    fc.assert(
      fc.property(fc.uniqueArray(variants, { minLength: 2, maxLength: 5 }), fc.nat(), (summaries, pick) => {
        const all = summaries.map((summary, i) =>
          spec(`api${i}`, [
            { method: 'POST', path: `/volumes${i}`, summary, operationId: i % 2 === 0 ? 'VolumeCreate' : 'volumeCreate' },
            { method: 'GET', path: '/other', summary: 'Other things' },
          ]),
        );
        const catalog = new Catalog(all);
        const k = pick % summaries.length;
        assert.equal(catalog.search(summaries[k]!, {}, 5)[0]?.endpoint.id, `api${k}:POST:/volumes${k}`, `"${summaries[k]}"`);
        // Pasted with the spaces around it that a copy often brings.
        assert.equal(catalog.search(`  ${summaries[k]!} `, {}, 5)[0]?.endpoint.id, `api${k}:POST:/volumes${k}`, `" ${summaries[k]} "`);
        // operationIds too: the first spec writing it as typed.
        assert.equal(catalog.search('volumeCreate', {}, 5)[0]?.endpoint.operationId, all.length > 1 ? 'volumeCreate' : 'VolumeCreate');
        return true;
      }),
      { numRuns: 60 },
    );
  });
});
