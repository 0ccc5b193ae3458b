// Words that name the API searched: the ranking searches that API without them first (they say
// little about which endpoint is meant), but when they are the only words of the query the API
// holds, they still find its endpoints: a rule may lower a word's weight, never drop the only words
// that match.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

/** A calendar API whose endpoints say `calendar` in their paths and none of the query's other words. */
function calendarApi(): ImportedSpec {
  return spec('calendar', [
    { method: 'POST', path: '/calendars/{calendarId}/events', summary: 'Creates an event' },
    { method: 'GET', path: '/calendars/{calendarId}/events', summary: 'Returns events' },
    { method: 'DELETE', path: '/calendars/{calendarId}/events/{eventId}', summary: 'Deletes an event' },
    { method: 'GET', path: '/colors', summary: 'Returns the color definitions' },
  ]);
}

/** Another API that holds the query's other words (meetings) but never names the calendar. */
function meetingsApi(name: string): ImportedSpec {
  return spec(name, [
    { method: 'POST', path: '/users/{userId}/meetings', summary: 'Schedule a meeting' },
    { method: 'DELETE', path: '/meetings/{meetingId}', summary: 'Cancel a meeting' },
    { method: 'GET', path: '/meetings', summary: 'List meetings' },
  ]);
}

/** Words that no endpoint of either API holds, so only the naming word can match in the calendar API. */
const UNMATCHED = ['tomorrow', 'afternoon', 'quarterly', 'offsite', 'standup', 'retro', 'kickoff', 'sync'];

describe('words that name the API searched', () => {
  it('find the named API endpoints within its spec when no other word of the query matches there', () => {
    const catalog = new Catalog([calendarApi(), meetingsApi('conference')]);
    const hits = catalog.search('schedule a meeting on my calendar', { spec: 'calendar' }, 5);
    assert.ok(hits.length > 0, 'an empty answer within the named spec');
    assert.ok(hits.every((h) => h.endpoint.spec === 'calendar'));
    assert.ok(hits.some((h) => h.endpoint.path.startsWith('/calendars/')));
  });

  it('rank the named API endpoints first over the whole catalogue when only its name matches there', () => {
    fc.assert(
      fc.property(fc.subarray(UNMATCHED, { minLength: 0, maxLength: 3 }), fc.constantFrom('schedule a meeting', 'cancel a meeting', 'meetings'), (extra, task) => {
        const catalog = new Catalog([meetingsApi('conference'), meetingsApi('webinars'), calendarApi()]);
        const query = [task, ...extra, 'in calendar'].join(' ');
        const top = catalog.search(query, {}, 5)[0];
        assert.equal(top?.endpoint.spec, 'calendar', query);
      }),
      { numRuns: 30 },
    );
  });

  it('within a spec, leave out its name written as the query writes it (camel case: "GitLab" is `git` and `lab`)', () => {
    // The spec's own name words are `gitlab` (name and title "Gitlab"); one summary writes "GitLab".
    const api = spec(
      'gitlab',
      [
        { method: 'GET', path: '/ci/lint', summary: 'Check a GitLab CI file' },
        { method: 'GET', path: '/runners', summary: 'List runners' },
        { method: 'GET', path: '/runners/{id}', summary: 'Get a runner' },
        { method: 'GET', path: '/projects', summary: 'List projects' },
      ],
      { title: 'Gitlab' },
    );
    const catalog = new Catalog([api]);
    fc.assert(
      fc.property(fc.constantFrom('GitLab', 'Git Lab', 'GITLAB', 'gitlab'), fc.constantFrom('list runners in X', 'X runners', 'list the runners of my X'), (said, shape) => {
        const query = shape.replace('X', said);
        assert.equal(catalog.search(query, { spec: 'gitlab' }, 3)[0]?.endpoint.id, 'gitlab:GET:/runners', query);
      }),
      { numRuns: 12 },
    );
  });

  it('still rank the named API by its other words first when they match there', () => {
    const catalog = new Catalog([calendarApi(), meetingsApi('conference')]);
    const top = catalog.search('colors of the calendar', {}, 5)[0];
    assert.equal(top?.endpoint.id, 'calendar:GET:/colors');
  });
});
