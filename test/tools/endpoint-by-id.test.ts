// endpoint_by_id: the few lines about one endpoint, each present only when the endpoint has it,
// and how an id is found (trimmed, any case of method) or answered when unknown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { endpoint, spec } from '../catalog/fixtures.ts';
import type { Endpoint, ImportedSpec, Parameter, RequestBody } from '../../src/model/index.ts';
import { benchOfSpecs } from './support.ts';

const param = (name: string, required: boolean): Parameter => ({ name, in: 'query', required, type: 'string' });

/** A spec of one endpoint built from `over` (parameters, body, tags ...). */
function oneEndpoint(over: Partial<Endpoint> & { summary?: string; description?: string }): ImportedSpec {
  const base = spec('shop', [], { collection: 'retail' });
  const e: Endpoint = { ...endpoint('shop', 'retail', { method: 'POST', path: '/orders' }), ...over };
  return { ...base, endpoints: [e] };
}

async function summaryOf(over: Partial<Endpoint>): Promise<string> {
  const bench = await benchOfSpecs([oneEndpoint(over)]);
  const r = await bench.run('endpoint_by_id', { endpointId: 'shop:POST:/orders' });
  assert.equal(r.isError, undefined, r.text);
  assert.equal(r.structured, undefined);
  return r.text;
}

describe('endpoint_by_id lines', () => {
  it('gives method and path, id, spec and collection, and "parameters: none" for a bare endpoint', async () => {
    assert.equal(await summaryOf({}), ['POST /orders', 'id: shop:POST:/orders', 'spec: shop (collection retail)', 'parameters: none'].join('\n'));
  });

  it('adds every part the endpoint has, in a fixed order', async () => {
    const body: RequestBody = { required: true, contents: [{ mediaType: 'application/json' }, { mediaType: 'text/csv' }] };
    const text = await summaryOf({
      deprecated: true,
      summary: 'Place an  order\n(old)',
      tags: ['orders', 'sales'],
      parameters: [param('dryRun', false), param('X-Key', true), param('page', true)],
      requestBody: body,
    });
    assert.equal(
      text,
      [
        'POST /orders',
        'id: shop:POST:/orders',
        'deprecated: yes',
        'summary: Place an order (old)',
        'spec: shop (collection retail)',
        'tags: orders, sales',
        'parameters: dryRun, X-Key*, page*',
        'body: application/json, text/csv (required)',
        '(* required)',
      ].join('\n'),
    );
  });

  it('says "body: yes" for a body without media types, and leaves out (required) and the star note when nothing is required', async () => {
    assert.equal(
      await summaryOf({ parameters: [param('q', false)], requestBody: { required: false, contents: [] }, description: 'Makes an order. Then more.' }),
      ['POST /orders', 'id: shop:POST:/orders', 'summary: Makes an order.', 'spec: shop (collection retail)', 'parameters: q', 'body: yes'].join('\n'),
    );
  });

  it('shows each parameter once, a star exactly on the required ones, and the note exactly when one is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.record({ name: fc.stringMatching(/^[a-z]{1,6}$/), required: fc.boolean() }), { selector: (p) => p.name, maxLength: 6 }), async (ps) => {
        const lines = (await summaryOf({ parameters: ps.map((p) => param(p.name, p.required)) })).split('\n');
        const line = lines.find((l) => l.startsWith('parameters: '));
        assert.equal(line, `parameters: ${ps.length ? ps.map((p) => `${p.name}${p.required ? '*' : ''}`).join(', ') : 'none'}`);
        assert.equal(lines.at(-1) === '(* required)', ps.some((p) => p.required));
      }),
      { numRuns: 30 },
    );
  });
});

describe('finding the endpoint', () => {
  const pets = spec('pets', [
    { method: 'GET', path: '/pets', summary: 'List pets' },
    { method: 'POST', path: '/pets', summary: 'Create a pet' },
    { method: 'GET', path: '/pets/{petId}', summary: 'Get a pet' },
  ]);

  it('takes the id with spaces around it, and the method in any case', async () => {
    const bench = await benchOfSpecs([pets]);
    for (const id of ['pets:GET:/pets/{petId}', '  pets:GET:/pets/{petId}\n', 'pets:get:/pets/{petId}', ' pets:gEt:/pets/{petId} ']) {
      const r = await bench.run('endpoint_by_id', { endpointId: id });
      assert.equal(r.isError, undefined, `${id}: ${r.text}`);
      assert.equal(r.text.split('\n')[1], 'id: pets:GET:/pets/{petId}');
    }
  });

  it('refuses an empty or blank id with the id format', async () => {
    const bench = await benchOfSpecs([pets]);
    for (const id of ['', '   ', '\n']) {
      assert.deepEqual(await bench.run('endpoint_by_id', { endpointId: id }), {
        isError: true,
        text: 'endpointId must not be empty\nhint: ids look like github:POST:/repos/{owner}/{repo}/issues; use search or endpoint_by_spec to find one',
      });
    }
  });

  it('answers an unknown id with the closest ids, or the id format when none is close', async () => {
    const bench = await benchOfSpecs([pets]);
    const near = await bench.run('inspect', { endpointId: ' pets:GET:/pet ' });
    assert.equal(near.isError, true);
    assert.match(near.text, /^unknown endpoint id "pets:GET:\/pet"\nhint: closest ids: pets:GET:\/pets(, |$)/);
    const none = await bench.run('endpoint_by_id', { endpointId: 'nothing-like-it' });
    assert.deepEqual(none, {
      isError: true,
      text: 'unknown endpoint id "nothing-like-it"\nhint: ids look like github:POST:/repos/{owner}/{repo}/issues; use search or endpoint_by_spec to find one',
    });
  });

  it('quotes an unknown id cut to 200 characters', async () => {
    const bench = await benchOfSpecs([pets]);
    const id = `zzz:GET:/${'q'.repeat(400)}`;
    const r = await bench.run('endpoint_by_id', { endpointId: id });
    const quoted = /^unknown endpoint id "([^"]*)"/.exec(r.text)?.[1];
    assert.equal(quoted, `${id.slice(0, 199)}…`);
  });
});

describe('unknown names', () => {
  it('says no specs are loaded when the catalogue is empty', async () => {
    const bench = await benchOfSpecs([]);
    for (const [tool, args, kind] of [
      ['endpoint_by_spec', { spec: 'pets' }, 'spec "pets"'],
      ['endpoint_by_collection', { collection: 'park' }, 'collection "park"'],
      ['endpoint_by_tag', { tag: 'pets' }, 'tag "pets"'],
    ] as const) {
      assert.deepEqual(await bench.run(tool, args), { isError: true, text: `unknown ${kind}\nhint: no specs are loaded; check svc.yaml and the server log` });
    }
  });

  it('quotes an unknown name cut to 100 characters, and names up to three near ones', async () => {
    const bench = await benchOfSpecs(['pets', 'petz', 'peta', 'petb'].map((n) => spec(n, [{ method: 'GET', path: '/a' }])));
    const long = 'x'.repeat(150);
    const r = await bench.run('endpoint_by_spec', { spec: long });
    assert.equal(r.text, `unknown spec "${'x'.repeat(99)}…"\nhint: call endpoint_by_spec without spec to list the specs`);
    const near = await bench.run('endpoint_by_spec', { spec: 'pet' });
    assert.equal(near.text, 'unknown spec "pet"\nhint: did you mean "peta", "petb", "pets"? Call endpoint_by_spec without spec to list them all');
  });
});
