// The words a query may name an API by (spec-names.ts), checked from their contract on generated
// specs: its name, collection, title and server hosts give their words as index terms, never a
// generic word, a version, a number or a word under three letters; a full name is the name's (or
// the collection's) plain words, without generic and version words, left out when only stop words remain.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fullNames, specNameTerms } from '../../src/catalog/spec-names.ts';
import { termsOf } from '../../src/catalog/text.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { endpoint, spec } from './fixtures.ts';

const GENERIC = ['api', 'rest', 'web', 'service', 'platform', 'com', 'io', 'cloud', 'json', 'sandbox', 'v2', 'www', 'dev'];
const NAMEWORDS = ['zoom', 'stripe', 'azure', 'blob', 'petstore', 'tracking', 'here', 'quartz', 'falcon', 'to', 'of', 'ab', 'x'];
const nameArb = fc.array(fc.constantFrom(...NAMEWORDS, ...GENERIC, '2010', 'v1', '1.0'), { minLength: 1, maxLength: 4 }).chain((words) =>
  fc.constantFrom('-', '.', ' ', '_').map((sep) => words.join(sep)),
);

function specWith(name: string, collection: string, title: string | undefined, servers: string[], endpointServers: string[] = []): ImportedSpec {
  const base = spec(name, [{ method: 'GET', path: '/things' }], { collection, ...(title !== undefined ? { title } : {}) });
  return {
    ...base,
    servers: servers.map((url) => ({ url })),
    endpoints: endpointServers.map((url, i) => ({ ...endpoint(name, collection, { method: 'GET', path: `/e${i}` }), servers: [{ url }] })),
  };
}

/** The words of a text the contract says may name the API, as index terms. */
function expectedTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || /^v?\d/.test(word) || GENERIC.includes(word)) continue;
    for (const t of termsOf(word)) if (t.length >= 3 && !GENERIC.includes(t)) out.add(t);
  }
  return out;
}

describe('specNameTerms', () => {
  it('holds the terms of the name, collection and title words, and nothing generic, short or numbered (generated names)', () => {
    fc.assert(
      fc.property(nameArb, nameArb, fc.option(nameArb, { nil: undefined }), (name, collection, title) => {
        const terms = specNameTerms(specWith(name, collection, title, []));
        const expected = new Set([...expectedTerms(name), ...expectedTerms(collection), ...expectedTerms(title ?? '')]);
        assert.deepEqual(terms, expected, `${name} | ${collection} | ${title}`);
      }),
      { numRuns: 500 },
    );
  });

  it('takes the words of each server host, without scheme, port, path or {variables}', () => {
    const terms = specNameTerms(specWith('x', 'c', undefined, ['https://api.zoom.us/v2', 'http://{region}.quartz.example.com:8080/a', 'falcon.io/path?x=1#y']));
    assert.deepEqual([...terms].sort(), [...new Set([...termsOf('zoom'), ...termsOf('quartz'), ...termsOf('falcon')])].sort());
    assert.ok(!terms.has('region') && !terms.has('path') && !terms.has('8080'));
    assert.deepEqual([...specNameTerms(specWith('x', 'c', undefined, ['stripe#frag']))], termsOf('stripe'));
    assert.deepEqual([...specNameTerms(specWith('x', 'c', undefined, ['HTTPS://Azure.net']))], termsOf('azure'));
  });

  it('reads the hosts of the first 20 endpoints\' own servers, no further', () => {
    const hosts = Array.from({ length: 21 }, (_, i) => (i === 20 ? 'https://falcon.test' : i === 19 ? 'https://quartz.test' : 'https://zoom.test'));
    const terms = specNameTerms(specWith('x', 'c', undefined, [], hosts));
    assert.ok(terms.has(termsOf('quartz')[0]!), 'the 20th endpoint\'s host');
    assert.ok(!terms.has(termsOf('falcon')[0]!), 'the 21st endpoint\'s host');
  });
});

describe('fullNames', () => {
  it('lists the plain words of the name and of the collection, each once, without generic and version words (generated names)', () => {
    fc.assert(
      fc.property(nameArb, nameArb, (name, collection) => {
        const names = fullNames(specWith(name, collection, undefined, []));
        const plain = (text: string) => [...new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 2 && !/^v?\d+$/.test(w) && !GENERIC.includes(w)))];
        const expected: string[][] = [];
        for (const words of [plain(name), plain(collection)]) {
          if (!words.some((w) => termsOf(w).length > 0)) continue;
          if (!expected.some((e) => e.join(' ') === words.join(' '))) expected.push(words);
        }
        assert.deepEqual(names, expected, `${name} | ${collection}`);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a stop word beside other words, drops a name of stop words alone', () => {
    assert.deepEqual(fullNames(specWith('here.com/tracking', 'here', undefined, [])), [['here', 'tracking']]);
    assert.deepEqual(fullNames(specWith('dev.to', 'dev.to', undefined, [])), []);
    assert.deepEqual(fullNames(specWith('azure-blob', 'azure-blob', undefined, [])), [['azure', 'blob']]);
    assert.deepEqual(fullNames(specWith('OpenAI', 'ai-v2', undefined, [])), [['openai'], ['ai']]);
  });
});
