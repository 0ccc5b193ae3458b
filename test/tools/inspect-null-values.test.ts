// inspect with null where a spec may write it: a parameter's own example null is its own example,
// and a schema whose items are null is a list of anything.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpoint, spec } from '../catalog/fixtures.ts';
import type { Parameter } from '../../src/model/index.ts';
import { benchOfSpecs } from './support.ts';

const link = (node: unknown) => ({ file: '/specs/hand.yaml', node });

describe('inspect and null', () => {
  it('shows a null example of its own, and a parameter with null items', async () => {
    const parameters: Parameter[] = [
      { name: 'e', in: 'query', required: false, type: 'string', schema: link({ type: 'string', example: 'x' }), example: null },
      { name: 'f', in: 'query', required: false, type: 'any[]', schema: link({ type: 'array', items: null }) },
    ];
    const bench = await benchOfSpecs([{ ...spec('hand', []), endpoints: [{ ...endpoint('hand', 'default', { method: 'GET', path: '/x' }), parameters }] }]);
    const r = await bench.run('inspect', { endpointId: 'hand:GET:/x' });
    assert.equal(r.text, ['GET /x', 'Parameters:', '  e (query, string, e.g. null)', '  f (query, any[])', 'Responses:', '  200 OK'].join('\n'));
  });
});
