import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectionFromFolder, defaultSpecName, safeName } from '../../src/config/index.ts';
import { closestKey } from '../../src/config/suggest.ts';

describe('spec names', () => {
  it('derives the default name from the file stem, lower-cased and safe for endpoint ids', () => {
    assert.equal(defaultSpecName('/x/GitHub.yaml'), 'github');
    assert.equal(defaultSpecName('/x/Pet Store.v2.json'), 'pet-store-v2');
    assert.equal(defaultSpecName('/x/a:b@c.yaml'), 'a-b-c');
    assert.equal(defaultSpecName('/x/__.yaml'), 'spec');
  });

  it('never leaves a colon in a name', () => {
    for (const text of ['a:b', '::', 'x:GET:/y']) assert.doesNotMatch(safeName(text), /:/);
  });

  it('takes the collection from the sub-folder of specsDir, else default', () => {
    assert.equal(collectionFromFolder('/p/specs/payments/stripe.yaml', '/p/specs'), 'payments');
    assert.equal(collectionFromFolder('/p/specs/Big Co/x/y.yaml', '/p/specs'), 'big-co');
    assert.equal(collectionFromFolder('/p/specs/stripe.yaml', '/p/specs'), 'default');
    assert.equal(collectionFromFolder('/elsewhere/stripe.yaml', '/p/specs'), 'default');
  });
});

describe('closestKey', () => {
  const known = ['path', 'name', 'collection', 'baseUrl', 'timeoutMs', 'retries'];
  it('finds typos, other casings and prefixes', () => {
    assert.equal(closestKey('colection', known), 'collection');
    assert.equal(closestKey('base_url', known), 'baseUrl');
    assert.equal(closestKey('timeout', known), 'timeoutMs');
  });
  it('suggests nothing for unrelated words', () => {
    assert.equal(closestKey('kubernetes', known), undefined);
  });
});
