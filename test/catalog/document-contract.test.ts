// What the index knows of an endpoint, from its contract, over generated endpoints: each document
// field holds the terms of the text it stands for (summary, else the description's first sentence,
// else the operationId; the first sentence as its own field only beside a summary; the rest of the
// description once per term; path and query parameter names, not those most of the spec takes);
// caches change nothing; paths normalise to one look-up form.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EMPTY_FIELD, commonParameters, documentOf, documentsOf, makeEntry } from '../../src/catalog/document.ts';
import { lastSegment, normalizePath, pathTerms } from '../../src/catalog/search.ts';
import { firstSentence, textTerms } from '../../src/catalog/text.ts';
import type { Endpoint, HttpMethod, Parameter } from '../../src/model/index.ts';
import { endpoint } from './fixtures.ts';

const WORDS = ['List', 'the', 'pods', 'Create', 'a', 'message', 'deletes', 'user', 'repos', 'of', 'all', 'items'];
const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('pods', '{name}', 'v1', 'users', 'api', 'messages.json', ':id', '123', 'listThings'), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  summary: fc.option(sentence, { nil: undefined }),
  description: fc.option(fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => `${s.join('. ')}.`), { nil: undefined }),
  operationId: fc.option(fc.constantFrom('listPods', 'createMessage', 'getUser', 'PostItems'), { nil: undefined }),
  tags: fc.subarray(['Pods', 'user admin', 'messages']),
  params: fc.subarray(['limit', 'cursor', 'name', 'X-Trace']),
});

type Input = typeof endpointArb extends fc.Arbitrary<infer T> ? T : never;

function make(input: Input, i: number): Endpoint {
  const e = endpoint('s', 'c', {
    method: input.method,
    path: input.path,
    ...(input.summary !== undefined ? { summary: input.summary } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.operationId !== undefined ? { operationId: input.operationId } : {}),
    tags: input.tags,
  });
  const parameters: Parameter[] = input.params.map((name) => ({ name, in: name.startsWith('X-') ? 'header' : i % 2 === 0 ? 'query' : 'path', required: false, type: 'string' }));
  return { ...e, parameters };
}

const orEmpty = (terms: readonly string[]) => (terms.length > 0 ? terms : EMPTY_FIELD);

describe('documentOf', () => {
  it('holds in each field the terms of the text it stands for', () => {
    fc.assert(
      fc.property(endpointArb, fc.nat({ max: 3 }), (input, i) => {
        const e = make(input, i);
        const doc = documentOf(makeEntry(e, 7, 6));
        assert.equal(doc.i, 7);
        const head = e.description ? firstSentence(e.description) : '';
        assert.deepEqual(doc.s, orEmpty(textTerms(e.summary || head || e.operationId)));
        assert.deepEqual(doc.d, e.summary ? orEmpty(textTerms(head)) : EMPTY_FIELD);
        assert.deepEqual(doc.o, orEmpty(textTerms(e.operationId)));
        assert.deepEqual(doc.t, orEmpty(textTerms(e.tags.join(' '))));
        assert.deepEqual(doc.p, orEmpty(pathTerms(e.path)));
        const rest = e.description ? e.description.trim().slice(head.length) : '';
        assert.deepEqual(doc.e, orEmpty([...new Set(textTerms(rest))]));
        const params = e.parameters.filter((p) => p.in === 'path' || p.in === 'query').map((p) => p.name);
        assert.deepEqual(doc.a, orEmpty(textTerms(params.join(' '))));
      }),
      { numRuns: 800 },
    );
  });

  it('gives the same documents with and without its caches, and leaves out parameters most endpoints take', () => {
    fc.assert(
      fc.property(fc.array(endpointArb, { minLength: 1, maxLength: 14 }), (inputs) => {
        const entries = inputs.map((input, i) => makeEntry(make(input, i), i + 1, i));
        const common = commonParameters(entries);
        const docs = documentsOf(entries);
        assert.deepEqual(docs, entries.map((e) => documentOf(e, undefined, undefined, common)));
        assert.deepEqual(documentsOf(entries, new Map()), docs);
        const paths = new Map();
        const cached = entries.map((e) => documentOf(e, paths, new Map(), common));
        assert.deepEqual(cached, docs);
        // Common: query parameters of more than 30% of at least 8 endpoints.
        const counts = new Map<string, number>();
        for (const e of entries) for (const p of e.endpoint.parameters) if (p.in === 'query') counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
        const want = entries.length < 8 ? [] : [...counts].filter(([, n]) => n > entries.length * 0.3).map(([name]) => name);
        assert.deepEqual([...common].sort(), want.sort());
      }),
      { numRuns: 200 },
    );
  });

  it('counts a parameter as common only past 30% of the endpoints, and only in specs of 8 or more', () => {
    const entriesWith = (n: number, withParam: number) =>
      Array.from({ length: n }, (_, i) => {
        const e = endpoint('s', 'c', { method: 'GET', path: `/x${i}` });
        return makeEntry({ ...e, parameters: i < withParam ? [{ name: 'alt', in: 'query', required: false, type: 'string' }] : [] }, i + 1, i);
      });
    assert.deepEqual([...commonParameters(entriesWith(10, 4))], ['alt']);
    assert.deepEqual([...commonParameters(entriesWith(10, 3))], []);
    assert.deepEqual([...commonParameters(entriesWith(8, 8))], ['alt']);
    assert.deepEqual([...commonParameters(entriesWith(7, 7))], []);
    // A common query parameter is left out of the parameter field; a path parameter of that name is not.
    const e = endpoint('s', 'c', { method: 'GET', path: '/pods/{alt}' });
    const withParams = (where: 'query' | 'path') => makeEntry({ ...e, parameters: [{ name: 'alt', in: where, required: false, type: 'string' }, { name: 'limit', in: 'query', required: false, type: 'string' }] }, 1);
    assert.deepEqual(documentOf(withParams('query'), undefined, undefined, new Set(['alt'])).a, ['limit']);
    assert.deepEqual(documentOf(withParams('path'), undefined, undefined, new Set(['alt'])).a, ['alt', 'limit']);
  });

  it('indexes the first 600 characters of the description past its first sentence', () => {
    const filler = 'word '.repeat(100);
    const e = endpoint('s', 'c', { method: 'GET', path: '/x', summary: 'Get x', description: `First one. ${filler}early ${filler}toolate` });
    const doc = documentOf(makeEntry(e, 1));
    assert.ok(doc.e.includes('earli'));
    assert.ok(!doc.e.includes('toolat'));
    assert.ok(documentOf(makeEntry({ ...e, description: `First one. ${filler}toolate` }, 1)).e.includes('toolat'));
  });
});

describe('paths', () => {
  const path = fc.array(fc.constantFrom('Users', '{id}', '{user_id}', ':name', 'pulls', 'v2', ''), { maxLength: 5 }).map((s) => s.join('/'));

  it('normalise to one form: lower case, placeholders as {}, a leading slash and no trailing one', () => {
    fc.assert(
      fc.property(path, fc.boolean(), (p, slash) => {
        const n = normalizePath(slash ? `/${p}` : p);
        assert.equal(normalizePath(n), n);
        assert.ok(n.startsWith('/'));
        assert.ok(n === '/' || !n.endsWith('/'), n);
        assert.equal(n, n.toLowerCase());
        assert.ok(!/\{[^}]/.test(n) && !/:[a-z]/.test(n), n);
        assert.equal(lastSegment(n), n.slice(n.lastIndexOf('/') + 1));
      }),
    );
    assert.equal(normalizePath('/Users/{id}/'), '/users/{}');
    assert.equal(normalizePath('users/:user_id'), '/users/{}');
    assert.equal(lastSegment('/repos/{}/pulls'), 'pulls');
    assert.equal(lastSegment('/repos/{}'), '{}');
    assert.equal(lastSegment('pulls'), 'pulls');
  });

  it('give their words, without version, number and format noise, and without placeholders unless asked', () => {
    assert.deepEqual(pathTerms('/api/v2/users/{userId}/messages.json/123'), ['user', 'messag']);
    assert.deepEqual(pathTerms('/api/v2/users/{userId}', true), ['user', 'user', 'id']);
    assert.deepEqual(pathTerms('/files/{id}#add_shared_link'), ['fil', 'creat', 'shar', 'link']);
    assert.deepEqual(pathTerms('/{container}?restype=container&comp=list'), ['container', 'list']);
    assert.deepEqual(pathTerms('/uploads?uploadId=x&partId'), ['upload', 'x']);
    // Noise is the whole word: versions, numbers, formats; words that merely contain them are words.
    assert.deepEqual(pathTerms('/api/json/xml/123/v3/v1beta2'), []);
    assert.deepEqual(pathTerms('/apis/jsonl/xml2/12a/v1x/beta/xv1'), ['api', 'jsonl', 'xml2', '12a', 'beta', 'xv1']);
    // A path that is all query: its value is the segment.
    assert.deepEqual(pathTerms('?restype=container'), ['container']);
  });
});

describe('makeEntry', () => {
  it('reads the item, the resource and the verbs its own words spell', () => {
    const entry = (method: HttpMethod, path: string, operationId?: string) => makeEntry(endpoint('s', 'c', { method, path, ...(operationId ? { operationId } : {}) }), 1);
    assert.equal(entry('GET', '/pods/{name}').item, true);
    assert.equal(entry('GET', '/users/@me').item, true);
    assert.equal(entry('GET', '/users/:id').item, true);
    assert.equal(entry('GET', '/pods').item, false);
    assert.equal(entry('GET', '/pods/{name}/').item, true);
    assert.deepEqual(entry('GET', '/pods/{name}/status').resource, ['status']);
    assert.deepEqual(entry('POST', '/chat.delete').verbs, ['delete']);
    assert.deepEqual(entry('POST', '/pods', 'PostPods').verbs, []);
    assert.deepEqual(entry('POST', '/pods', 'createPod').verbs, ['create']);
    assert.deepEqual(entry('POST', '/messages/send').verbs, ['create']);
    assert.deepEqual(entry('GET', '/pods/{name}/list').resource, ['pod']);
    assert.deepEqual(entry('GET', '/{a}/{b}').resource, []);
  });
});
