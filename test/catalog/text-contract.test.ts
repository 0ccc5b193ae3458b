// Words of API text, from their contract: identifiers split the same way whichever scanner reads
// them, stemming makes the forms of a word agree and never makes up letters, abbreviations and
// synonyms meet their full words, stop words give nothing and no word gives an empty term;
// descriptions cut to their first sentence, within the length asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { withRules } from '../../src/catalog/rules.ts';
import { firstSentence, firstSentenceOfPlain, intentOfTerm, isPluralWord, plainText, splitWords, stem, termsOf, textTerms, verbHint } from '../../src/catalog/text.ts';

/** Pieces of identifiers and prose: acronyms, plurals of acronyms, camel humps, digits, separators. */
const PIECES = ['URL', 'URLs', 'PRs', 'HTTP', 'Server', 'list', 'Pull', 'Requests', 'id', 'ID', 'IDs', 'A', 's', 'x', '2', 'v1', '_', '-', '.', '/', ' ', '{', '}', 'getURLs'];
const identifier = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join('')),
  fc.stringMatching(/^[A-Za-z0-9 _./{}-]{0,20}$/),
);

describe('splitWords', () => {
  it('splits ASCII text the same way as the Unicode scanner that reads text with other letters', () => {
    fc.assert(
      fc.property(identifier, (text) => {
        // Known difference, left as it is: capitals, an s, then a lone capital (`AAsA`): the Unicode
        // scanner reads the s as part of the acronym and does not break before that capital.
        fc.pre(!/[A-Z]{2}s[A-Z](?![a-z])/.test(text));
        assert.deepEqual(splitWords(`${text} é`), [...splitWords(text), 'é'], text);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps every letter and digit, in order, in lower case, and nothing else', () => {
    fc.assert(
      fc.property(identifier, (text) => {
        const words = splitWords(text);
        assert.equal(words.join(''), text.toLowerCase().replace(/[^a-z0-9]/g, ''));
        for (const w of words) assert.match(w, /^[a-z0-9]+$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('breaks camel humps and acronyms, and keeps an acronym\'s plural whole', () => {
    assert.deepEqual(splitWords('listPullRequests'), ['list', 'pull', 'requests']);
    assert.deepEqual(splitWords('HTTPServer'), ['http', 'server']);
    assert.deepEqual(splitWords('getURLs'), ['get', 'urls']);
    assert.deepEqual(splitWords('PRs'), ['prs']);
    assert.deepEqual(splitWords('URLsList'), ['urls', 'list']);
    assert.deepEqual(splitWords('IDsX'), ['ids', 'x']);
    assert.deepEqual(splitWords('URLShortener'), ['url', 'shortener']);
    assert.deepEqual(splitWords('v2Users'), ['v2', 'users']);
    assert.deepEqual(splitWords('ÜberCafé list'), ['über', 'café', 'list']);
  });
});

describe('stem', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/);

  it('leaves words of three letters or fewer, and words with digits, as they are', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9]{1,12}$/), (w) => {
      if (w.length <= 3 || /\d/.test(w)) assert.equal(stem(w), w);
    }));
  });

  it('only cuts a word\'s ending, writing at most a last y (or "ies") as a y or an i', () => {
    fc.assert(
      fc.property(word, (w) => {
        const s = stem(w);
        assert.ok(s.length > 0 && s.length <= w.length, `${w} -> ${s}`);
        const body = s.slice(0, -1);
        // (A y or i last stands for the word's y, or for its "ies": `copy` -> copi, `policies` -> polici.)
        const forY = /[yi]$/.test(s) && w.startsWith(body) && (w[body.length] === 'y' || w.startsWith('ies', body.length));
        assert.ok(w.startsWith(s) || forY, `${w} -> ${s}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('makes a plural, an -ing and an -ed form agree with the word', () => {
    // Words whose last letter a suffix would merge with (-s after s, u, i, a; -ies; a silent e) are rules of their own.
    const plain = word.filter((w) => w.length >= 3 && !/(e|ed|s|y|ing|u|i|a)$/.test(w));
    fc.assert(
      fc.property(plain, fc.constantFrom('s', 'ing', 'ed'), (w, suffix) => {
        assert.equal(stem(w + suffix), stem(w), `${w}${suffix}`);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}[b-df-hj-np-tv-xz]$/), (base) => {
        assert.equal(stem(`${base}ies`), stem(`${base}y`), `${base}ies`);
      }),
    );
    // A noun in -ie and its plural (`movie`, `movies`); a word in -y after a consonant and its -ies, -ied
    // forms (`copy`, `copies`, `copied`): the plural's -ies must not read as a -y word's.
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}[b-df-hj-np-tv-xz]$/), (base) => {
        assert.equal(stem(`${base}ies`), stem(`${base}ie`), `${base}ie / ${base}ies`);
        assert.equal(stem(`${base}ied`), stem(`${base}y`), `${base}y / ${base}ied`);
      }),
    );
    // A word in a vowel and its plural in -is or -as (`api`, `apis`; `schema`, `schemas`), but not the
    // singulars those endings also spell (-sis, -xis, -ias, -aas).
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}[b-df-hj-np-rtv-wyz][ia]$/), (w) => {
        assert.equal(stem(`${w}s`), stem(w), `${w}s`);
      }),
    );
    for (const w of ['analysis', 'basis', 'axis', 'alias', 'bias', 'status', 'bonus', 'saas']) assert.equal(stem(w), w, w);
    for (const [a, b] of [['apis', 'api'], ['emojis', 'emoji'], ['uris', 'uri'], ['schemas', 'schema'], ['replicas', 'replica'], ['quotas', 'quota'], ['aliases', 'alias']]) {
      assert.equal(stem(a!), stem(b!), `${a} / ${b}`);
    }
    // After a vowel a final y stays (`gateway`); a word left at three letters keeps its y or e (`try`, `tie`).
    for (const w of ['gateway', 'delay', 'survey']) assert.equal(stem(w), w, w);
    for (const [a, b] of [['tries', 'try'], ['ties', 'tie'], ['addresses', 'address'], ['classes', 'class'], ['movies', 'movie'], ['cookies', 'cookie'], ['copied', 'copy'], ['applied', 'apply'], ['queries', 'query'], ['keys', 'key'], ['gateways', 'gateway'], ['delays', 'delay']]) {
      assert.equal(stem(a!), stem(b!), `${a} / ${b}`);
    }
    for (const [a, b] of [['policies', 'policy'], ['addresses', 'address'], ['databases', 'database'], ['recording', 'record'], ['created', 'create'], ['status', 'status'], ['aliases', 'alias']]) {
      assert.equal(stem(a!), stem(b!), `${a} / ${b}`);
    }
    // What must stay apart: `-ss`, `-us`, `-is` endings are no plurals, and "-eed" is no "-ed".
    assert.equal(stem('class'), 'class');
    assert.equal(stem('bonus'), 'bonus');
    assert.equal(stem('analysis'), 'analysis');
    assert.equal(stem('speed'), 'speed');
    assert.equal(stem('ring'), 'ring');
    assert.equal(stem('bed'), 'bed');
    assert.equal(stem('thing'), 'thing');
    assert.equal(stem('things'), 'thing');
    assert.equal(stem('shed'), 'shed');
    assert.equal(stem('aged'), 'aged');
  });
});

describe('termsOf', () => {
  it('gives stop words no term, and every other word of letters at least one, none of them empty', () => {
    for (const w of ['a', 'an', 'the', 'of', 'for', 'to', 'with', 'and', 'or', 'is', 'this', 'your', 'please', 'using', 'specific', 'throughout']) {
      assert.deepEqual(termsOf(w), [], w);
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,12}$/), (w) => {
        for (const t of termsOf(w)) assert.ok(t.length > 0, w);
      }),
    );
    // Object's own property names are words like any other.
    for (const w of ['constructor', 'tostring', '__proto__', 'hasownproperty', 'valueof']) assert.deepEqual(termsOf(w), [stem(w)], w);
  });

  it('makes abbreviations, spellings, synonyms and verb synonyms meet the word they stand for', () => {
    const same: [string, string][] = [
      ['repo', 'repository'], ['repos', 'repository'], ['repositories', 'repository'],
      ['org', 'organization'], ['orgs', 'organization'], ['organisation', 'organization'], ['organisations', 'organization'],
      ['authn', 'auth'], ['authz', 'auth'],
      ['configs', 'config'], ['cfg', 'config'], ['conf', 'config'], ['configuration', 'config'], ['configurations', 'config'], ['configure', 'config'], ['settings', 'setting'],
      ['env', 'environment'], ['envs', 'environment'], ['environments', 'environment'],
      ['ids', 'id'], ['pulls', 'pull'],
      ['msg', 'message'], ['msgs', 'message'],
      ['db', 'database'], ['dbs', 'database'], ['pwd', 'password'], ['passwd', 'password'], ['addr', 'address'],
      ['apps', 'app'], ['application', 'app'], ['applications', 'app'],
      ['admins', 'admin'], ['administrator', 'admin'], ['administrators', 'admin'],
      ['dir', 'directory'], ['dirs', 'directory'], ['doc', 'document'], ['docs', 'document'],
      ['img', 'image'], ['imgs', 'image'], ['cert', 'certificate'], ['certs', 'certificate'],
      ['var', 'variable'], ['vars', 'variable'], ['stat', 'statistic'], ['stats', 'statistic'], ['statistics', 'statistic'],
      ['perm', 'permission'], ['perms', 'permission'], ['acct', 'account'], ['accts', 'account'],
      ['txn', 'transaction'], ['txns', 'transaction'], ['tx', 'transaction'],
      ['desc', 'description'], ['attr', 'attribute'], ['attrs', 'attribute'], ['param', 'parameter'], ['params', 'parameter'],
      ['ts', 'timestamp'], ['emails', 'email'], ['e-mail', 'email'],
      ['picture', 'image'], ['pictures', 'image'], ['pic', 'image'], ['pics', 'image'], ['photo', 'image'], ['photos', 'image'], ['avatar', 'image'], ['avatars', 'image'],
      ['mail', 'email'], ['sms', 'message'], ['mms', 'message'],
      ['lists', 'list'], ['listing', 'list'], ['enumerate', 'list'], ['browse', 'list'],
      ['gets', 'get'], ['fetch', 'get'], ['fetches', 'get'], ['retrieve', 'get'], ['retrieves', 'get'], ['read', 'get'], ['reads', 'get'],
      ['show', 'get'], ['shows', 'get'], ['view', 'get'], ['views', 'get'], ['describe', 'get'], ['obtain', 'get'],
      ['creates', 'create'], ['add', 'create'], ['adds', 'create'], ['new', 'create'], ['make', 'create'], ['insert', 'create'],
      ['inserts', 'create'], ['initiate', 'create'], ['initiates', 'create'],
      ['updates', 'update'], ['edit', 'update'], ['edits', 'update'], ['change', 'update'], ['changes', 'update'],
      ['modify', 'update'], ['modifies', 'update'], ['alter', 'update'], ['patch', 'update'],
      ['deletes', 'delete'], ['remove', 'delete'], ['removes', 'delete'], ['destroy', 'delete'], ['destroys', 'delete'], ['erase', 'delete'], ['drop', 'delete'],
      ['searches', 'search'], ['find', 'search'], ['finds', 'search'], ['lookup', 'search'], ['query', 'search'],
    ];
    for (const [word, full] of same) {
      assert.deepEqual(termsOf(word), termsOf(full), `${word} / ${full}`);
      assert.ok(termsOf(word).every((t) => t.length > 0), word);
    }
    // Abbreviations of two words give both.
    assert.deepEqual(termsOf('pr'), [...termsOf('pull'), ...termsOf('request')]);
    assert.deepEqual(termsOf('prs'), termsOf('pr'));
    assert.deepEqual(termsOf('dm'), [...termsOf('direct'), ...termsOf('message')]);
    assert.deepEqual(termsOf('dms'), termsOf('dm'));
    assert.deepEqual(termsOf('info'), ['info']);
  });

  it('applies each vocabulary family only while it is switched on', () => {
    assert.deepEqual(withRules({ abbreviations: false }, () => [termsOf('repo'), termsOf('photo'), termsOf('fetch')]), [['repo'], ['imag'], ['get']]);
    assert.deepEqual(withRules({ synonyms: false }, () => [termsOf('repo'), termsOf('photo'), termsOf('fetch')]), [[stem('repository')], ['photo'], ['get']]);
    assert.deepEqual(withRules({ crudSynonyms: false }, () => [termsOf('repo'), termsOf('photo'), termsOf('fetch')]), [[stem('repository')], ['imag'], ['fetch']]);
    assert.deepEqual([termsOf('repo'), termsOf('photo'), termsOf('fetch')], [[stem('repository')], ['imag'], ['get']]);
    assert.equal(withRules({ verbHints: false }, () => verbHint('send')), undefined);
    assert.equal(withRules({ missVerbHints: false }, () => [verbHint('send'), verbHint('kick')]).join(), 'create,');
  });

  it('reads the five CRUD verbs as intents, and nothing else', () => {
    assert.deepEqual(['list', 'get', 'create', 'update', 'delete'].map((v) => intentOfTerm(termsOf(v)[0]!)), ['list', 'get', 'create', 'update', 'delete']);
    for (const w of ['search', 'send', 'user', 'lis', '']) assert.equal(intentOfTerm(w === '' ? '' : termsOf(w)[0]!), undefined, w);
  });

  it('hints the intent of verbs that are also names, and undoes it for un- verbs', () => {
    const hints: [string, string | undefined][] = [
      ['send', 'create'], ['post', 'create'], ['upload', 'create'], ['open', 'create'], ['submit', 'create'], ['start', 'create'], ['register', 'create'],
      ['invite', 'create'], ['generate', 'create'], ['rename', 'update'], ['replace', 'update'], ['move', 'update'], ['toggle', 'update'],
      ['enable', 'update'], ['disable', 'update'], ['schedule', 'create'], ['search', 'list'], ['unset', 'delete'], ['revoke', 'delete'],
      ['set', 'update'], ['assign', 'update'], ['mark', 'update'], ['archive', 'update'], ['close', 'update'], ['follow', 'create'], ['subscribe', 'create'],
      ['copy', 'create'], ['clone', 'create'], ['duplicate', 'create'], ['import', 'create'], ['attach', 'create'], ['connect', 'create'], ['join', 'create'],
      ['install', 'create'], ['deploy', 'create'], ['launch', 'create'], ['trigger', 'create'], ['book', 'create'], ['reserve', 'create'], ['buy', 'create'],
      ['purchase', 'create'], ['refund', 'create'], ['download', 'get'], ['export', 'get'], ['count', 'get'], ['check', 'get'], ['inspect', 'get'], ['preview', 'get'],
      ['take', 'create'], ['mute', 'update'], ['kick', 'delete'], ['purge', 'delete'], ['release', 'delete'],
      // un-: a relation made is undone, a change stays a change, anything else says nothing.
      ['unfollow', 'delete'], ['unsubscribe', 'delete'], ['unarchive', 'update'], ['unmute', undefined], ['unicorn', undefined], ['user', undefined],
    ];
    for (const [verb, intent] of hints) assert.equal(verbHint(stem(verb)), intent, verb);
  });
});

describe('textTerms', () => {
  it('is the terms of each word in order, and nothing for no text', () => {
    assert.deepEqual(textTerms(undefined), []);
    assert.deepEqual(textTerms(''), []);
    assert.deepEqual(textTerms('List the repos of an org'), ['list', ...termsOf('repository'), ...termsOf('organization')]);
  });
});

describe('isPluralWord', () => {
  it('is a word of more than three letters ending in s, not ss, us or is, and not a stop word or a verb\'s form', () => {
    for (const w of ['pods', 'policies', 'users', 'items']) assert.equal(isPluralWord(w), true, w);
    for (const w of ['pod', 'bus', 'ids', 'class', 'status', 'analysis', 'those', 'this']) assert.equal(isPluralWord(w), false, w);
  });

  it('reads a word the vocabulary maps as plural when it is its singular\'s plural, not when it is a verb\'s form', () => {
    for (const w of ['repos', 'stats', 'apps', 'emails', 'settings', 'docs']) assert.equal(isPluralWord(w), true, w);
    for (const w of ['lists', 'changes', 'updates', 'deletes', 'removes', 'gets', 'shows', 'views']) assert.equal(isPluralWord(w), false, w);
  });
});

describe('firstSentence', () => {
  it('is the first sentence of the plain text, trimmed, and never longer than asked', () => {
    assert.equal(firstSentence('  <b>Lists</b> the [pets](https://x.test/p). Then more.'), 'Lists  the [pets].');
    assert.equal(firstSentence('\n  Get a pet!\nMore'), 'Get a pet!');
    assert.equal(firstSentence('One line\n\nAnother paragraph'), 'One line\n');
    assert.equal(firstSentence('No end at all'), 'No end at all');
    assert.equal(firstSentence('See https://example.test/a.b for more. Next.'), 'See   for more.');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 250 }), (text, max) => {
        const s = firstSentence(text, max);
        assert.ok(s.length <= max);
        assert.ok(plainText(text).trim().startsWith(s));
        assert.equal(firstSentenceOfPlain(plainText(text).trim(), max), s);
      }),
    );
  });
});
