// Which API a query names: the words a user calls an API by (its spec name, the words of its title,
// of its server host, its collection), minus the words every API description uses of itself.
import type { ImportedSpec } from '../model/index.ts';
import { splitWords, termsOf } from './text.ts';

/**
 * Words API descriptions use of themselves or their hosts, whatever the API: they name no API in
 * particular ("the Web API", `api.example.com`, "REST service", "v2").
 */
const GENERIC_NAME_WORDS = new Set(
  (
    'api apis rest restful http https web www app apps service services server servers platform public open openapi ' +
    'swagger spec specification reference documentation docs doc sdk developer developers interface endpoint endpoints ' +
    'com net org io co us uk de fr eu dev gov edu info biz cloud online official version beta alpha preview ' +
    'json xml graphql rpc grpc sandbox staging prod production test example localhost'
  ).split(' '),
);

/** Whether `word` (lower case) is one of the words every API description uses of itself: it names no API. */
export function isGenericNameWord(word: string): boolean {
  return GENERIC_NAME_WORDS.has(word);
}

function nameTermsOf(text: string | undefined, out: Set<string>): void {
  if (!text) return;
  for (const word of splitWords(text)) {
    if (word.length < 3 || /^v?\d/.test(word) || GENERIC_NAME_WORDS.has(word)) continue;
    for (const t of termsOf(word)) if (t.length >= 3 && !GENERIC_NAME_WORDS.has(t)) out.add(t);
  }
}

/** The host of a server URL, without scheme, port or path (`{region}.api.example.com` kept as words). */
function hostOf(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const end = rest.search(/[/:?#]/);
  return end >= 0 ? rest.slice(0, end) : rest;
}

/** The index terms a query may name this spec by. */
export function specNameTerms(spec: ImportedSpec): Set<string> {
  const out = new Set<string>();
  nameTermsOf(spec.name, out);
  nameTermsOf(spec.collection, out);
  nameTermsOf(spec.title, out);
  const hosts = new Set<string>();
  for (const s of spec.servers) hosts.add(hostOf(s.url));
  // Endpoints may carry their own servers (a per-path override): the first few say the host.
  for (let i = 0; i < spec.endpoints.length && i < 20; i++) for (const s of spec.endpoints[i]!.servers) hosts.add(hostOf(s.url));
  for (const h of hosts) nameTermsOf(h.replace(/\{[^}]*\}/g, ' ').replace(/\./g, ' '), out);
  return out;
}

/** Words of a name, lower case, split at anything but letters and digits (not at camelCase: `OpenAI` stays one word). */
function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** A version or a number (`v2`, `2010`, `1.0`): it tells versions of one API apart, it does not name one. */
const VERSION_WORD = /^v?\d+$/;

/**
 * The words a query must hold to name this spec in full: those of its name (what the user called it
 * in svc.yaml), and separately those of its collection, each without generic and version words
 * (`stripe.com` -> stripe, `azure-blob` -> azure blob, `s3` -> s3). Empty lists are left out, and
 * so are lists of stop words alone, which are in most queries and say nothing (`dev.to` would be
 * named by every query holding "to"); a stop word beside other words stays part of the name
 * (`here.com/tracking` is named by "here tracking", not by "tracking" alone).
 */
export function fullNames(spec: ImportedSpec): string[][] {
  const out: string[][] = [];
  for (const text of [spec.name, spec.collection]) {
    const words = [...new Set(plainWords(text).filter((w) => w.length >= 2 && !VERSION_WORD.test(w) && !GENERIC_NAME_WORDS.has(w)))];
    if (!words.some((w) => termsOf(w).length > 0)) continue;
    if (!out.some((o) => o.join(' ') === words.join(' '))) out.push(words);
  }
  return out;
}
