// An endpoint's index document keeps its description's first sentence apart from the rest: the
// rest field (`e`) starts where that sentence ends, whatever space or markup comes before it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { documentOf, makeEntry } from '../../src/catalog/document.ts';
import { endpoint } from './fixtures.ts';

const FIRST = ['creates', 'widget', 'orders'];
const REST = ['returns', 'ticket', 'later'];


describe('the description after its first sentence', () => {
  it('holds only words after the first sentence, however the description starts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', ' ', '   ', '\n', '\n\n  ', '<p>', '<p>\n  ', '\t<div> '),
        fc.array(fc.constantFrom(...FIRST), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...REST), { minLength: 1, maxLength: 4 }),
        (lead, first, rest) => {
          const text = `${first.join(' ')}. ${rest.join(' ')} here.`;
          const rest_ = (description: string) => documentOf(makeEntry(endpoint('s', 'c', { method: 'POST', path: '/x', summary: 'Make one', description }), 1, 0)).e;
          // The same as without anything before the text: no piece of the first sentence's end.
          assert.deepEqual(rest_(`${lead}${text}`), rest_(text), JSON.stringify(lead));
          assert.ok(rest_(text).length > 0);
        },
      ),
      { numRuns: 100 },
    );
  });
});
