// `svc check` run as a real child process (`node bin/svc.js check ...`) on temp files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'svc.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function svc(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    delete env['SVC_CONFIG'];
    if (options.env?.['SVC_CONFIG']) env['SVC_CONFIG'] = options.env['SVC_CONFIG'];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const OPENAPI_30 = `openapi: 3.0.3
info: { title: Pets, version: "1.0" }
paths:
  /pets:
    get:
      summary: List pets
      responses: { '200': { description: ok } }
    post:
      responses: { '201': { description: created } }
    trace:
      responses: { '200': { description: ok } }
  /pets/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
`;
const OPENAPI_31 = `openapi: 3.1.0
info: { title: Hooks, version: "2" }
paths:
  /events:
    get:
      responses: { '200': { description: ok } }
webhooks:
  created:
    post:
      responses: { '200': { description: ok } }
`;
const SWAGGER = JSON.stringify({ swagger: '2.0', info: { title: 'S', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
const POSTMAN = JSON.stringify({
  info: { name: 'PM', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [{ name: 'get a', request: { method: 'GET', url: 'https://x.example/a' } }],
});
const POSTMAN_20 = JSON.stringify({
  info: { name: 'PM0', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
  item: [{ name: 'get b', request: { method: 'GET', url: 'https://x.example/b' } }],
});
const BROKEN = 'openapi: 3.0.0\ninfo:\n  title: x\n   version: 1\npaths: {\n';

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-check-'));
  const files: Record<string, string> = {
    'specs/pets.yaml': OPENAPI_30,
    'specs/hooks/hooks.yaml': OPENAPI_31,
    'specs/sw.json': SWAGGER,
    'specs/pm.json': POSTMAN,
    'specs/pm0.json': POSTMAN_20,
    'specs/broken.yaml': BROKEN,
    'svc.yaml': 'specs:\n  - specs/pets.yaml\n  - path: specs/hooks/hooks.yaml\n    name: hooks\n',
    'bad/svc.yaml': 'specs:\n  - path: ../specs/pets.yaml\n    exclude: [TRACE /pets]\n',
    'other/conf.yaml': 'specs:\n  - ../specs/sw.json\n',
    'env/svc.yaml': 'specs:\n  - path: ../specs/sw.json\n    auth: { type: bearer, token: "${SVC_TEST_TOKEN_UNSET}" }\n    headers: { X-Set: "${SVC_TEST_SET}" }\n',
  };
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await writeFile(join(dir, rel), content);
  }
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('svc check', () => {
  it('reports format, counts and skipped operations for the specs in svc.yaml, exit 0', async () => {
    const run = await svc(['check'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^pets \[default\] specs\/pets\.yaml: ok, openapi-3\.0 \(3\.0\.3\)\n  3 endpoints, 0 webhooks, 1 skipped/m);
    assert.match(run.stdout, /^hooks \[hooks\] specs\/hooks\/hooks\.yaml: ok, openapi-3\.1 \(3\.1\.0\)\n  1 endpoint, 1 webhook/m);
    assert.match(run.stdout, /TRACE \/pets/);
    assert.match(run.stdout, /2 specs: 2 ok, 0 with errors; 4 endpoints in all\n$/);
    assert.equal(run.stderr, '', 'nothing on stderr when it is not a terminal');
  });

  it('prints exactly one JSON object with the stable keys for every format', async () => {
    const run = await svc(['check', '--json', 'specs/pets.yaml', 'specs/hooks/hooks.yaml', 'specs/sw.json', 'specs/pm.json', 'specs/pm0.json'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { specs: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(report), ['specs']);
    assert.deepEqual(
      report.specs.map((s) => [s['name'], s['format'], s['endpoints'], s['webhooks']]),
      [
        ['pets', 'openapi-3.0', 3, 0],
        ['hooks', 'openapi-3.1', 1, 1],
        ['sw', 'swagger-2.0', 1, 0],
        ['pm', 'postman-2.1', 1, 0],
        ['pm0', 'postman-2.0', 1, 0],
      ],
    );
    for (const spec of report.specs) {
      for (const key of ['file', 'name', 'format', 'endpoints', 'webhooks', 'skipped', 'warnings', 'errors']) assert.ok(key in spec, key);
    }
    const pets = report.specs[0]!;
    assert.equal(pets['file'], join(dir, 'specs/pets.yaml'));
    assert.deepEqual((pets['skipped'] as { method: string; pointer: string }[]).map((s) => [s.method, s.pointer]), [['TRACE', '/paths/~1pets/trace']]);
    assert.equal(run.stdout.trim().split('\n').length, 1, 'one line of JSON');
  });

  it('exits 1 and names the file of a spec that cannot be read, while reporting the others', async () => {
    const run = await svc(['check', 'specs/broken.yaml', 'specs/sw.json'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^broken \[default\] specs\/broken\.yaml: FAILED/m);
    assert.match(run.stdout, /^ {2}specs\/broken\.yaml(:\d+(:\d+)?|#\S*)?: error: /m);
    assert.match(run.stdout, /^ {4}hint: /m);
    assert.match(run.stdout, /^sw \[default\] specs\/sw\.json: ok, swagger-2\.0/m);
    assert.match(run.stdout, /2 specs: 1 ok, 1 with errors/);

    const json = await svc(['check', '--json', 'specs/broken.yaml'], { cwd: dir });
    assert.equal(json.code, 1);
    const spec = (JSON.parse(json.stdout) as { specs: { errors: { file: string; severity: string; message: string }[]; endpoints: number }[] }).specs[0]!;
    assert.equal(spec.endpoints, 0);
    assert.equal(spec.errors[0]!.severity, 'error');
    assert.equal(spec.errors[0]!.file, join(dir, 'specs/broken.yaml'));
  });

  it('finds the config through --config and SVC_CONFIG, resolving paths from its folder', async () => {
    const flag = await svc(['check', '--config', join(dir, 'other/conf.yaml'), '--json'], { cwd: tmpdir() });
    assert.equal(flag.code, 0, flag.stderr);
    assert.equal((JSON.parse(flag.stdout) as { specs: { name: string }[] }).specs[0]!.name, 'sw');
    const env = await svc(['check', '--json'], { cwd: tmpdir(), env: { SVC_CONFIG: join(dir, 'other/conf.yaml') } });
    assert.equal(env.code, 0, env.stderr);
    assert.equal((JSON.parse(env.stdout) as { specs: { file: string }[] }).specs[0]!.file, join(dir, 'specs/sw.json'));
  });

  it('warns about credential variables that are not set, without failing', async () => {
    const run = await svc(['check', '--config', 'env/svc.yaml', '--json'], { cwd: dir, env: { SVC_TEST_SET: 'a-value-that-must-not-show' } });
    assert.equal(run.code, 0, run.stderr);
    const warnings = (JSON.parse(run.stdout) as { specs: { warnings: { code: string; message: string; line?: number; file: string }[] }[] }).specs[0]!.warnings;
    assert.deepEqual(
      warnings.map((w) => [w.code, w.file, w.line]),
      [['env-unset', join(dir, 'env/svc.yaml'), 2]],
    );
    assert.match(warnings[0]!.message, /SVC_TEST_TOKEN_UNSET \(auth\[0\]\.token of spec sw\) is not set/);
    assert.doesNotMatch(run.stdout, /a-value-that-must-not-show/);
  });

  it('fails on an invalid svc.yaml with the key and line on stderr, and the problems in --json', async () => {
    const run = await svc(['check', '--config', 'bad/svc.yaml'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^svc: .*bad\/svc\.yaml: 1 problem in the config:\n {2}line 3, specs\[0\]\.exclude: svc\.yaml cannot change endpoints/);
    const json = await svc(['check', '--json', '--config', 'bad/svc.yaml'], { cwd: dir });
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout) as { specs: unknown[]; config: { problems: { key: string; line: number }[] } };
    assert.deepEqual(out.specs, []);
    assert.deepEqual(out.config.problems.map((p) => [p.key, p.line]), [['specs[0].exclude', 3]]);
  });

  it('says how to point at a config when there is no svc.yaml', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'svc-check-empty-'));
    try {
      const run = await svc(['check'], { cwd: empty });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^svc: .*svc\.yaml: 1 problem.*\n.*file not found; create it .*--config <file>/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('fails on a FILE that does not exist', async () => {
    const run = await svc(['check', 'specs/nope.yaml'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /nope\.yaml does not exist/);
  });
});

describe('svc command line', () => {
  it('rejects unknown options and commands with exit 2', async () => {
    const option = await svc(['check', '--bogus'], { cwd: dir });
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^svc: Unknown option `--bogus`/);
    const command = await svc(['frobnicate'], { cwd: dir });
    assert.equal(command.code, 2);
    assert.match(command.stderr, /^svc: unknown command `frobnicate`\n {2}hint: run `svc --help`/);
  });

  it('prints help and version, exit 0', async () => {
    const help = await svc(['--help'], { cwd: dir });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:\n {2}\$ svc <command> \[options\]/);
    assert.match(help.stdout, /check \[\.\.\.files\]/);
    assert.match(help.stdout, /--config <file>/);
    const version = await svc(['--version'], { cwd: dir });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^svc\/\d+\.\d+\.\d+/);
  });
});
