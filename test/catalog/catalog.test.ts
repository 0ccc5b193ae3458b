import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { SvcError } from '../../src/model/index.ts';
import { petsSpec, spec } from './fixtures.ts';

const ids = (endpoints: readonly { id: string }[]) => endpoints.map((e) => e.id);

describe('Catalog holds endpoints and listings', () => {
  it('starts empty and counts endpoints after replace', () => {
    const catalog = new Catalog();
    assert.equal(catalog.size, 0);
    assert.equal(catalog.generation, 0);
    assert.deepEqual(catalog.list({}), []);
    catalog.replace([petsSpec()]);
    assert.equal(catalog.size, 9);
    assert.equal(catalog.generation, 1);
  });

  it('gets an endpoint by id and returns undefined for unknown or malformed ids', () => {
    const catalog = new Catalog([petsSpec()]);
    assert.equal(catalog.get('pets:GET:/pets/{petId}')?.summary, 'Get a pet');
    assert.equal(catalog.get('pets:GET:/nope'), undefined);
    assert.equal(catalog.get('other:GET:/pets'), undefined);
    assert.equal(catalog.get('no-colon'), undefined);
    assert.equal(catalog.get(':GET:/pets'), undefined);
  });

  it('lists in spec order then document order, by spec, collection and tag', () => {
    const a = petsSpec('a', 'zoo');
    const b = spec('b', [{ method: 'GET', path: '/animals', tags: ['pets'] }], { collection: 'farm' });
    const c = spec('c', [{ method: 'GET', path: '/barns' }], { collection: 'zoo' });
    const catalog = new Catalog([a, b, c]);
    assert.deepEqual(ids(catalog.list({})), [...ids(a.endpoints), ...ids(b.endpoints), ...ids(c.endpoints)]);
    assert.deepEqual(ids(catalog.list({ spec: 'b' })), ['b:GET:/animals']);
    assert.deepEqual(ids(catalog.list({ collection: 'zoo' })), [...ids(a.endpoints), 'c:GET:/barns']);
    assert.deepEqual(ids(catalog.list({ tag: 'pets' })), [...ids(a.endpoints.filter((e) => e.tags.includes('pets'))), 'b:GET:/animals']);
    assert.deepEqual(ids(catalog.list({ spec: 'a', tag: 'photos' })), ['a:GET:/pets/{petId}/photos']);
    assert.deepEqual(ids(catalog.list({ collection: 'farm', tag: 'pets' })), ['b:GET:/animals']);
    assert.deepEqual(catalog.list({ spec: 'a', collection: 'farm' }), []);
    assert.deepEqual(catalog.list({ spec: 'missing' }), []);
    assert.deepEqual(catalog.list({ tag: 'missing' }), []);
  });

  it('summarizes specs, collections and tags with counts', () => {
    const catalog = new Catalog([petsSpec('a', 'zoo'), spec('b', [{ method: 'GET', path: '/x', tags: ['t'] }], { collection: 'farm' })]);
    assert.deepEqual(catalog.summaries(), [
      { name: 'a', collection: 'zoo', title: 'Pet Store', endpoints: 9, deprecated: 1 },
      { name: 'b', collection: 'farm', endpoints: 1, deprecated: 0 },
    ]);
    assert.deepEqual(catalog.collections(), [
      { name: 'zoo', specs: [{ name: 'a', endpoints: 9 }], endpoints: 9 },
      { name: 'farm', specs: [{ name: 'b', endpoints: 1 }], endpoints: 1 },
    ]);
    assert.deepEqual(catalog.tags('a'), [
      { tag: 'pets', endpoints: 6 },
      { tag: 'photos', endpoints: 1 },
      { tag: 'owners', endpoints: 2 },
      { tag: 'store', endpoints: 1 },
    ]);
    assert.deepEqual(catalog.tags(), [...catalog.tags('a'), { tag: 't', endpoints: 1 }]);
    assert.deepEqual(catalog.tags('missing'), []);
    assert.equal(catalog.spec('a')?.title, 'Pet Store');
    assert.equal(catalog.spec('missing'), undefined);
    assert.deepEqual(catalog.specs().map((s) => s.name), ['a', 'b']);
  });

  it('keeps the first of two endpoints with the same id', () => {
    const s = spec('dup', [
      { method: 'GET', path: '/x', summary: 'first' },
      { method: 'GET', path: '/x', summary: 'second' },
    ]);
    const catalog = new Catalog([s]);
    assert.equal(catalog.size, 1);
    assert.equal(catalog.get('dup:GET:/x')?.summary, 'first');
  });
});

describe('Catalog.replace', () => {
  it('refuses two specs with the same name and keeps the catalogue as it was', () => {
    const catalog = new Catalog([petsSpec()]);
    assert.throws(
      () => catalog.replace([petsSpec('x'), petsSpec('x')]),
      (error: unknown) => error instanceof SvcError && error.code === 'catalog-duplicate-spec' && /"x"/.test(error.message),
    );
    assert.equal(catalog.generation, 1);
    assert.equal(catalog.size, 9);
    assert.ok(catalog.get('pets:GET:/pets'));
    assert.equal(catalog.search('create pet')[0]?.endpoint.id, 'pets:POST:/pets');
  });

  it('drops removed specs from lookups, listings and search', () => {
    const catalog = new Catalog([petsSpec('a'), spec('b', [{ method: 'GET', path: '/giraffes', summary: 'List giraffes' }])]);
    assert.equal(catalog.search('giraffes')[0]?.endpoint.id, 'b:GET:/giraffes');
    catalog.replace([petsSpec('a')]);
    assert.equal(catalog.get('b:GET:/giraffes'), undefined);
    assert.deepEqual(catalog.search('giraffes'), []);
    assert.deepEqual(catalog.list({ spec: 'b' }), []);
    assert.equal(catalog.size, 9);
  });

  it('re-indexes a spec replaced by a new object with the same name', () => {
    const catalog = new Catalog([spec('s', [{ method: 'GET', path: '/cats', summary: 'List cats' }])]);
    catalog.replace([spec('s', [{ method: 'GET', path: '/dogs', summary: 'List dogs' }])]);
    assert.deepEqual(catalog.search('cats'), []);
    assert.equal(catalog.search('dogs')[0]?.endpoint.id, 's:GET:/dogs');
    assert.equal(catalog.get('s:GET:/cats'), undefined);
  });

  it('does not rebuild a spec passed again as the same object', () => {
    const a = petsSpec('a');
    const catalog = new Catalog([a]);
    const before = catalog.list({ spec: 'a' });
    const endpoint = catalog.get('a:DELETE:/pets/{petId}');
    catalog.replace([a, spec('b', [{ method: 'GET', path: '/x' }])]);
    // The same listing array and endpoint objects: the spec's state was kept, not rebuilt or re-added.
    assert.equal(catalog.list({ spec: 'a' }), before);
    assert.equal(catalog.get('a:DELETE:/pets/{petId}'), endpoint);
    assert.equal(catalog.search('delete pet')[0]?.endpoint, endpoint);
    assert.equal(catalog.search('delete pet').filter((h) => h.endpoint.id === 'a:DELETE:/pets/{petId}').length, 1);
    assert.equal(catalog.generation, 2);
  });

  it('survives many replace cycles with stable search results', () => {
    const a = petsSpec('a');
    const catalog = new Catalog([a]);
    for (let i = 0; i < 50; i++) {
      catalog.replace([a, spec(`churn${i % 3}`, [{ method: 'GET', path: `/thing${i}`, summary: `Thing ${i}` }])]);
    }
    assert.equal(catalog.size, 10);
    assert.equal(catalog.search('update pet')[0]?.endpoint.id, 'a:PATCH:/pets/{petId}');
    assert.equal(catalog.search('thing49')[0]?.endpoint.id, 'churn1:GET:/thing49');
    assert.ok(catalog.search('thing48').every((h) => h.endpoint.path !== '/thing48'));
  });

  it('keeps the previous catalogue whole when a new spec cannot be indexed', () => {
    const catalog = new Catalog([petsSpec('a')]);
    const broken = spec('b', [{ method: 'GET', path: '/x' }]);
    const bad = Object.defineProperty({ ...broken.endpoints[0]! }, 'path', {
      get() {
        throw new Error('unreadable endpoint');
      },
    });
    assert.throws(() => catalog.replace([petsSpec('a2'), { ...broken, endpoints: [bad] }]), /unreadable endpoint/);
    assert.equal(catalog.generation, 1);
    assert.deepEqual(catalog.specs().map((s) => s.name), ['a']);
    assert.equal(catalog.search('list pets')[0]?.endpoint.id, 'a:GET:/pets');
    assert.deepEqual(catalog.search('list pets').filter((h) => h.endpoint.spec !== 'a'), []);
  });

  it('returns equally relevant hits in catalogue order after replaces, as a fresh catalogue does', () => {
    const stable = petsSpec('stable');
    let churn = petsSpec('churn');
    const updated = new Catalog([stable, churn]);
    for (let i = 0; i < 5; i++) {
      churn = petsSpec('churn');
      updated.replace([stable, churn]);
    }
    const fresh = new Catalog([stable, churn]);
    const order = (c: Catalog) => c.search('delete a pet').map((h) => h.endpoint.id);
    assert.deepEqual(order(updated), order(fresh));
    assert.equal(order(updated)[0], 'stable:DELETE:/pets/{petId}');
  });

  it('finds a re-imported spec\'s changed and unchanged endpoints, and none of its removed ones', () => {
    const before = spec('s', [
      { method: 'GET', path: '/cats', summary: 'List cats' },
      { method: 'GET', path: '/dogs', summary: 'List dogs' },
      { method: 'GET', path: '/birds', summary: 'List birds' },
    ]);
    // Same content for /cats (its document is kept), new text for /dogs, /birds gone, /fish new.
    const after = spec('s', [
      { method: 'GET', path: '/cats', summary: 'List cats' },
      { method: 'GET', path: '/dogs', summary: 'List puppies' },
      { method: 'GET', path: '/fish', summary: 'List fish' },
    ]);
    const catalog = new Catalog([before]);
    catalog.replace([after]);
    const fresh = new Catalog([after]);
    for (const q of ['cats', 'puppies', 'fish', 'list']) {
      assert.deepEqual(
        catalog.search(q).map((h) => [h.endpoint.id, h.score]),
        fresh.search(q).map((h) => [h.endpoint.id, h.score]),
        q,
      );
    }
    // The hit is the new spec's endpoint object, not the one it replaced.
    assert.equal(catalog.search('cats')[0]?.endpoint, after.endpoints[0]);
    assert.deepEqual(catalog.search('birds'), []);
  });

  it('ranks after specs are dropped, added and reordered exactly as a fresh catalogue of the same specs', () => {
    const zoo = (name: string) => spec(name, [
      { method: 'GET', path: '/animals', summary: 'List animals' },
      { method: 'POST', path: '/animals', summary: 'Create an animal' },
      { method: 'GET', path: '/animals/{id}/feedings', summary: 'List feedings of an animal' },
    ], { collection: 'zoo' });
    const shop = (name: string, extra: string) => spec(name, [
      { method: 'GET', path: '/orders', summary: 'List orders' },
      { method: 'DELETE', path: '/orders/{id}', summary: `Cancel an order ${extra}` },
      { method: 'GET', path: '/animals/toys', summary: 'List animal toys' },
    ], { collection: 'shop' });
    const a = zoo('a');
    const b = shop('b', 'now');
    const c = zoo('c');
    const d = shop('d', 'later');
    const catalog = new Catalog([a, b, c, d]);
    catalog.replace([d, a]);
    catalog.replace([c, d, shop('e', 'today'), a]);
    const fresh = new Catalog(catalog.specs());
    const answers = (cat: Catalog, filters: { collection?: string }) =>
      ['animals', 'list animal', 'cancel order', 'feeding', 'toys', 'orders'].map((q) =>
        cat.search(q, filters).map((h) => `${h.endpoint.id} ${h.score}`),
      );
    for (const filters of [{}, { collection: 'zoo' }, { collection: 'shop' }]) {
      assert.deepEqual(answers(catalog, filters), answers(fresh, filters), JSON.stringify(filters));
    }
    assert.deepEqual(catalog.search('cancel order').map((h) => h.endpoint.spec).sort(), ['d', 'd', 'e', 'e']);
    assert.ok(catalog.search('now').every((h) => h.endpoint.spec !== 'b'));
  });

  it('replaces to an empty catalogue', () => {
    const catalog = new Catalog([petsSpec()]);
    catalog.replace([]);
    assert.equal(catalog.size, 0);
    assert.deepEqual(catalog.search('pets'), []);
    assert.deepEqual(catalog.collections(), []);
  });
});

describe('Catalog.search', () => {
  const catalog = new Catalog([petsSpec('a', 'zoo'), petsSpec('b', 'farm')]);

  it('maps intent verbs to methods and shapes', () => {
    assert.equal(catalog.search('list pets', { spec: 'a' })[0]?.endpoint.id, 'a:GET:/pets');
    assert.equal(catalog.search('add a new pet', { spec: 'a' })[0]?.endpoint.id, 'a:POST:/pets');
    assert.equal(catalog.search('remove a pet', { spec: 'a' })[0]?.endpoint.id, 'a:DELETE:/pets/{petId}');
    assert.equal(catalog.search('change a pet', { spec: 'a' })[0]?.endpoint.id, 'a:PATCH:/pets/{petId}');
    assert.equal(catalog.search('fetch one pet', { spec: 'a' })[0]?.endpoint.id, 'a:GET:/pets/{petId}');
  });

  it('puts a named path first across many specs: exact matches of the method, its tail matches, then the other methods', () => {
    const specs = Array.from({ length: 12 }, (_, i) =>
      spec(`s${i}`, [
        { method: 'GET', path: '/pets/{petId}', summary: 'Get a pet' },
        { method: 'DELETE', path: '/v2/pets/{petId}', summary: 'Remove a pet' },
        { method: 'DELETE', path: '/pets/{petId}', summary: 'Delete a pet' },
      ]),
    );
    const catalog = new Catalog(specs);
    const found = (limit: number) => catalog.search('DELETE /pets/{id}', {}, limit).map((h) => h.endpoint.id);
    assert.deepEqual(found(3), ['s0:DELETE:/pets/{petId}', 's1:DELETE:/pets/{petId}', 's2:DELETE:/pets/{petId}']);
    const all = found(36);
    assert.deepEqual(all, [
      ...specs.map((s) => `${s.name}:DELETE:/pets/{petId}`),
      ...specs.map((s) => `${s.name}:DELETE:/v2/pets/{petId}`),
      ...specs.map((s) => `${s.name}:GET:/pets/{petId}`),
    ]);
    assert.deepEqual(found(20), all.slice(0, 20));
  });

  it('finds a named method and path directly', () => {
    assert.equal(catalog.search('DELETE /pets/{id}', { spec: 'b' })[0]?.endpoint.id, 'b:DELETE:/pets/{petId}');
    assert.deepEqual(
      ids(catalog.search('/photos', { spec: 'a' }).slice(0, 1).map((h) => h.endpoint)),
      ['a:GET:/pets/{petId}/photos'],
    );
  });

  it('filters by spec, collection, tag and method', () => {
    assert.ok(catalog.search('pet', { spec: 'b' }).every((h) => h.endpoint.spec === 'b'));
    assert.ok(catalog.search('pet', { collection: 'zoo' }).every((h) => h.endpoint.collection === 'zoo'));
    assert.ok(catalog.search('pet', { tag: 'photos' }).every((h) => h.endpoint.tags.includes('photos')));
    assert.deepEqual(
      ids(catalog.search('pet', { method: 'DELETE' }).map((h) => h.endpoint)).sort(),
      ['a:DELETE:/pets/{petId}', 'b:DELETE:/pets/{petId}'],
    );
    assert.deepEqual(catalog.search('pet', { spec: 'missing' }), []);
  });

  it('ranks deprecated endpoints below current ones', () => {
    const s = spec('d', [
      { method: 'GET', path: '/v1/report', summary: 'Download the usage report', deprecated: true },
      { method: 'GET', path: '/v2/report', summary: 'Download the usage report' },
    ]);
    const hits = new Catalog([s]).search('usage report');
    assert.deepEqual(ids(hits.map((h) => h.endpoint)), ['d:GET:/v2/report', 'd:GET:/v1/report']);
  });

  it('reads "the current user" as the caller, not as a word an operation name must contain', () => {
    const s = spec('u', [
      { method: 'GET', path: '/users/@me/apps/{app}/grants', operationId: 'get_current_user_app_grants' },
      { method: 'GET', path: '/users/@me', operationId: 'get_my_user' },
    ]);
    assert.equal(new Catalog([s]).search('get the current user')[0]?.endpoint.id, 'u:GET:/users/@me');
  });

  it('reads a query that starts with a plural noun as asking to read, not to act', () => {
    const s = spec('g', [
      { method: 'POST', path: '/guilds/{guild}/channels', operationId: 'create_guild_channel' },
      { method: 'GET', path: '/guilds/{guild}/channels', operationId: 'list_guild_channels' },
    ]);
    assert.equal(new Catalog([s]).search('channels in a guild')[0]?.endpoint.id, 'g:GET:/guilds/{guild}/channels');
  });

  it('reads common action verbs as the CRUD operation they imply (take, release, mute)', () => {
    const s = spec('v', [
      { method: 'DELETE', path: '/volumes/snapshots/{id}', summary: 'Delete a volume snapshot' },
      { method: 'POST', path: '/volumes/{id}/snapshots', summary: 'Create snapshot from a volume' },
      { method: 'GET', path: '/volumes/snapshots/{id}', summary: 'Retrieve a volume snapshot' },
      { method: 'POST', path: '/numbers/{sid}', summary: 'Update a phone number' },
      { method: 'DELETE', path: '/numbers/{sid}', summary: 'Delete a phone number' },
      { method: 'DELETE', path: '/participants/{sid}', summary: 'Kick a participant' },
      { method: 'POST', path: '/participants/{sid}', summary: 'Update a participant' },
    ]);
    const c = new Catalog([s]);
    assert.equal(c.search('take a snapshot of a volume')[0]?.endpoint.id, 'v:POST:/volumes/{id}/snapshots');
    assert.equal(c.search('release a phone number')[0]?.endpoint.id, 'v:DELETE:/numbers/{sid}');
    assert.equal(c.search('mute a participant')[0]?.endpoint.id, 'v:POST:/participants/{sid}');
  });

  it('finds endpoints without summaries through operationId, path and parameter words', () => {
    const s = spec('k', [
      { method: 'GET', path: '/api/v1/namespaces/{namespace}/configmaps', operationId: 'listCoreV1NamespacedConfigMap', params: ['namespace'] },
      { method: 'GET', path: '/conversations.history', operationId: 'conversations_history', params: ['channel'] },
      { method: 'POST', path: '/v1/payment_intents', operationId: 'PostPaymentIntents' },
    ]);
    const c = new Catalog([s]);
    assert.equal(c.search('config maps')[0]?.endpoint.id, 'k:GET:/api/v1/namespaces/{namespace}/configmaps');
    assert.equal(c.search('conversation history of a channel')[0]?.endpoint.id, 'k:GET:/conversations.history');
    assert.equal(c.search('create a payment intent')[0]?.endpoint.id, 'k:POST:/v1/payment_intents');
  });

  it('understands abbreviations and plurals', () => {
    const s = spec('g', [
      { method: 'GET', path: '/repos/{owner}/{repo}/pulls', summary: 'List pull requests', params: ['owner', 'repo'] },
      { method: 'GET', path: '/orgs/{org}/repos', summary: 'List organization repositories', params: ['org'] },
      { method: 'GET', path: '/user', summary: 'Get the authenticated user' },
    ]);
    const c = new Catalog([s]);
    assert.equal(c.search('list PRs')[0]?.endpoint.id, 'g:GET:/repos/{owner}/{repo}/pulls');
    assert.equal(c.search('repos of an org')[0]?.endpoint.id, 'g:GET:/orgs/{org}/repos');
  });

  it('indexes and finds words that are names of Object.prototype members', () => {
    const s = spec('js', [
      { method: 'GET', path: '/classes/{name}/constructor', summary: 'Get the constructor of a class', params: ['name'] },
      { method: 'GET', path: '/values/{id}', summary: 'Convert a value with toString', operationId: 'valueOf', params: ['id'] },
    ]);
    const c = new Catalog([s]);
    assert.equal(c.search('constructor')[0]?.endpoint.id, 'js:GET:/classes/{name}/constructor');
    assert.equal(c.search('toString hasOwnProperty')[0]?.endpoint.id, 'js:GET:/values/{id}');
  });

  it('returns nothing for empty, stop-word-only or unmatched queries and honours the limit', () => {
    assert.deepEqual(catalog.search(''), []);
    assert.deepEqual(catalog.search('   '), []);
    assert.deepEqual(catalog.search('the of a'), []);
    assert.deepEqual(catalog.search('zzzqqq'), []);
    assert.equal(catalog.search('pet', {}, 3).length, 3);
    assert.deepEqual(catalog.search('pet', {}, 0), []);
  });

  it('tolerates a typo through the fuzzy fallback', () => {
    assert.equal(catalog.search('invetory', { spec: 'a' })[0]?.endpoint.id, 'a:GET:/store/inventory');
  });

  it('carries id, method, path, summary and spec in every hit', () => {
    const hit = catalog.search('get a pet', { spec: 'a' })[0]!;
    assert.equal(hit.endpoint.id, 'a:GET:/pets/{petId}');
    assert.equal(hit.endpoint.method, 'GET');
    assert.equal(hit.endpoint.path, '/pets/{petId}');
    assert.equal(hit.endpoint.summary, 'Get a pet');
    assert.equal(hit.endpoint.spec, 'a');
    assert.ok(hit.score > 0);
  });
});

describe('Catalog.suggest', () => {
  const catalog = new Catalog([petsSpec('pets'), petsSpec('other')]);

  it('suggests the same path under another method first', () => {
    assert.equal(catalog.suggest('pets:PUT:/pets/{petId}')[0]?.startsWith('pets:'), true);
    assert.ok(catalog.suggest('pets:PUT:/pets/{petId}').slice(0, 3).includes('pets:PATCH:/pets/{petId}'));
  });

  it('suggests close paths within the spec for a typo', () => {
    assert.equal(catalog.suggest('pets:GET:/pet')[0], 'pets:GET:/pets');
    assert.equal(catalog.suggest('pets:GET:/pets/{id}/photo')[0], 'pets:GET:/pets/{petId}/photos');
    assert.equal(catalog.suggest('pets:GET:/owner/{ownerId}')[0], 'pets:GET:/owners/{ownerId}');
  });

  it('corrects a misspelled spec name', () => {
    assert.equal(catalog.suggest('pest:GET:/pets')[0], 'pets:GET:/pets');
  });

  it('falls back to search for text that is not shaped like an id, and honours the limit', () => {
    assert.ok(catalog.suggest('list owners').some((id) => id.endsWith(':GET:/owners')));
    assert.equal(catalog.suggest('pets:GET:/pets', 2).length, 2);
    assert.deepEqual(catalog.suggest('pets:GET:/pets', 0), []);
    assert.deepEqual(new Catalog().suggest('x:GET:/y'), []);
  });
});
