// Everyday English verbs that imply an intent (make a thing from another, bring one in; read one
// out): read as a weaker intent, still searched, in a query and in an endpoint's own name alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeEntry, parseQuery, withRules } from '../../src/catalog/search.ts';
import { endpoint } from './fixtures.ts';

const ROWS: readonly [string, 'create' | 'get'][] = [
  ['copy a file to another folder', 'create'],
  ['clone a repository', 'create'],
  ['duplicate a dashboard', 'create'],
  ['import contacts from a file', 'create'],
  ['attach a volume to a server', 'create'],
  ['connect a bank account', 'create'],
  ['join a meeting', 'create'],
  ['install an app', 'create'],
  ['deploy a site', 'create'],
  ['launch an instance', 'create'],
  ['trigger a build', 'create'],
  ['book a room', 'create'],
  ['reserve a table', 'create'],
  ['buy a phone number', 'create'],
  ['purchase a plan', 'create'],
  ['refund a charge', 'create'],
  ['download an invoice as PDF', 'get'],
  ['export the audit log', 'get'],
  ['count open issues', 'get'],
  ['check the status of a job', 'get'],
  ['inspect a container', 'get'],
  ['preview an email template', 'get'],
];

describe('verbs that imply an intent', () => {
  for (const [query, intent] of ROWS) {
    it(`"${query}" -> ${intent} (hinted, the verb still searched)`, () => {
      const q = parseQuery(query);
      assert.equal(q.intent, intent);
      assert.equal(q.hinted, true);
      assert.ok(q.terms.includes(parseQuery(query.split(' ')[0]!).terms[0]!));
      assert.equal(withRules({ verbHints: false }, () => parseQuery(query).intent), undefined);
    });
  }

  it('an endpoint whose own name says such a verb does that', () => {
    const entry = (operationId: string, path: string) => makeEntry(endpoint('s', 'c', { method: 'POST', path, operationId }), 1);
    assert.deepEqual(entry('cloneRepository', '/repos/{id}/clone').verbs, ['create']);
    assert.deepEqual(entry('exportAuditLog', '/audit/export').verbs, ['get']);
    assert.deepEqual(entry('uninstallApp', '/apps/{id}/uninstall').verbs, ['delete']);
  });
});
