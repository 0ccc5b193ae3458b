// `svc check` in this process (runCli and renderText), where mutation testing sees it: the text
// report (one head line per spec with its format, counts in words with thousands separators, a
// skipped operation said once when a warning names the same place, errors, warnings and notes with
// their hints, paths relative to the working folder when inside it, the totals), the JSON report's
// keys, exit 1 on any spec with errors, a broken svc.yaml in --json, and credentials whose variables
// are not set. test/cli/check.test.ts runs the same command as a process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderText, type CheckReport } from '../../src/cli/check.ts';
import { runCli } from '../../src/cli/program.ts';
import { captureStream } from '../support/tty.ts';

const cwd = process.cwd();
const base = { collection: 'default', title: null, webhooks: 0, skipped: [], warnings: [], errors: [], notes: [], ms: 0 } as const;

describe('svc check text report', () => {
  it('gives each spec its head line, counts, skipped operations, diagnostics and notes, then the totals', () => {
    const reports: CheckReport[] = [
      {
        ...base, file: join(cwd, 'specs', 'a.yaml'), name: 'a', format: 'openapi-3.0', formatVersion: '3.0.3', title: 'A', endpoints: 1, ms: 12,
        skipped: [{ method: 'TRACE', path: '/x', reason: 'TRACE is not served', pointer: '/paths/~1x/trace' }, { method: 'TRACE', path: '/y', reason: 'TRACE is not served', pointer: '/paths/~1y/trace' }],
        warnings: [{ severity: 'warning', code: 'method-skipped', message: 'TRACE /y skipped', file: join(cwd, 'specs', 'a.yaml'), pointer: '/paths/~1y/trace' }],
        notes: [{ code: 'auth-mapped', message: 'applied as Bearer', file: '/etc/svc/svc.yaml', line: 3, hint: 'add scheme: k' }, { code: 'n', message: 'plain note', file: join(cwd, 'svc.yaml') }],
      },
      {
        ...base, file: '/abs/b.json', name: 'b\nforged', collection: 'c', format: null, formatVersion: null, endpoints: 0, webhooks: 1, ms: 3,
        errors: [{ severity: 'error', code: 'yaml', message: 'bad', file: '/abs/b.json', line: 2, column: 5, hint: 'fix it' }, { severity: 'error', code: 'e2', message: 'worse', file: '/abs/b.json' }],
      },
      {
        ...base, file: join(cwd, 'w.json'), name: 'w', format: 'swagger-2.0', formatVersion: null, endpoints: 1234, webhooks: 2, ms: 1,
        warnings: [{ severity: 'warning', code: 'w1', message: 'one', file: join(cwd, 'w.json') }, { severity: 'warning', code: 'w2', message: 'two', file: join(cwd, 'w.json'), pointer: '/x' }],
      },
    ];
    assert.equal(
      renderText(reports),
      [
        'a [default] specs/a.yaml: ok, openapi-3.0 (3.0.3)',
        '  1 endpoint, 0 webhooks, 2 skipped, 1 warning (12 ms)',
        '  skipped TRACE /x: TRACE is not served (specs/a.yaml#/paths/~1x/trace)',
        '  specs/a.yaml#/paths/~1y/trace: warning: TRACE /y skipped',
        '  /etc/svc/svc.yaml:3: note: applied as Bearer',
        '    hint: add scheme: k',
        '  svc.yaml: note: plain note',
        'b forged [c] /abs/b.json: FAILED, unknown format',
        '  0 endpoints, 1 webhook, 2 errors (3 ms)',
        '  /abs/b.json:2:5: error: bad',
        '    hint: fix it',
        '  /abs/b.json: error: worse',
        'w [default] w.json: ok, swagger-2.0',
        '  1,234 endpoints, 2 webhooks, 2 warnings (1 ms)',
        '  w.json: warning: one',
        '  w.json#/x: warning: two',
        '3 specs: 2 ok, 1 with errors; 1,235 endpoints in all',
        '',
      ].join('\n'),
    );
    assert.equal(renderText([]), '0 specs: 0 ok, 0 with errors; 0 endpoints in all\n');
  });

  it('shows a path outside the working folder, or the folder itself, in full', () => {
    const outside = join(dirname(cwd), 'elsewhere', 'o.yaml');
    const one = { ...base, name: 'o', format: 'openapi-3.1', formatVersion: '3.1.0', endpoints: 1, webhooks: 1 } as const;
    assert.equal(renderText([{ ...one, file: outside }]).split('\n')[0], `o [default] ${outside}: ok, openapi-3.1 (3.1.0)`);
    assert.equal(renderText([{ ...one, file: cwd }]).split('\n')[0], `o [default] ${cwd}: ok, openapi-3.1 (3.1.0)`);
  });
});

describe('svc check in process', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-check-report-'));
    writeFileSync(join(dir, 'pets.yaml'), 'openapi: 3.0.3\ninfo: { title: Pets, version: "1.0" }\npaths:\n  /pets:\n    get:\n      responses: { "200": { description: ok } }\n    trace:\n      responses: { "200": { description: ok } }\n');
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.0.3\ninfo: [\n');
    writeFileSync(join(dir, 'hooks.yaml'), 'openapi: 3.1.0\ninfo: { title: Hooks, version: "2" }\npaths: {}\nwebhooks:\n  created:\n    post:\n      responses: { "200": { description: ok } }\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function check(config: string, json: boolean, env: NodeJS.ProcessEnv = {}) {
    const stdout = captureStream(false, 80);
    const stderr = captureStream(false, 80);
    const file = join(dir, `svc-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, config);
    const code = await runCli(['node', 'svc', 'check', ...(json ? ['--json'] : []), '--config', file], { stdout, stderr, env });
    return { code, out: stdout.text, err: stderr.text, file };
  }

  it('reports every spec in config order with the stable keys, and exits 0 when none has an error', async () => {
    const r = await check('specs:\n  - pets.yaml\n  - path: hooks.yaml\n    name: hooks\n    collection: events\n', true);
    assert.equal(r.code, 0, r.err);
    const { specs } = JSON.parse(r.out) as { specs: (CheckReport & Record<string, unknown>)[] };
    assert.deepEqual(Object.keys(specs[0]!), ['file', 'name', 'collection', 'format', 'formatVersion', 'title', 'endpoints', 'webhooks', 'skipped', 'warnings', 'errors', 'notes', 'ms']);
    assert.deepEqual(specs.map((s) => [s.file, s.name, s.collection, s.format, s.formatVersion, s.title, s.endpoints, s.webhooks, s.errors.length]), [
      [join(dir, 'pets.yaml'), 'pets', 'default', 'openapi-3.0', '3.0.3', 'Pets', 1, 0, 0],
      [join(dir, 'hooks.yaml'), 'hooks', 'events', 'openapi-3.1', '3.1.0', 'Hooks', 0, 1, 0],
    ]);
    assert.deepEqual(specs[0]!.skipped.map((s) => s.method), ['TRACE']);
    assert.ok(specs.every((s) => typeof s.ms === 'number' && s.ms >= 0));
    const text = await check('specs:\n  - pets.yaml\n', false);
    assert.equal(text.code, 0);
    assert.match(text.out, /^pets \[default\] \S*pets\.yaml: ok, openapi-3\.0 \(3\.0\.3\)\n {2}1 endpoint, 0 webhooks, 1 skipped, 1 warning \(\d+ ms\)\n/);
    assert.match(text.out, /\n1 spec: 1 ok, 0 with errors; 1 endpoint in all\n$/);
  });

  it('exits 1 when a spec has an error, and still reports the others', async () => {
    const started = performance.now();
    const r = await check('specs:\n  - broken.yaml\n  - pets.yaml\n', true);
    const wall = performance.now() - started;
    assert.equal(r.code, 1);
    const { specs } = JSON.parse(r.out) as { specs: CheckReport[] };
    assert.deepEqual(specs.map((s) => [s.name, s.format, s.formatVersion, s.title, s.endpoints, s.webhooks, s.errors.length > 0, s.notes, s.skipped.length]), [
      ['broken', null, null, null, 0, 0, true, [], 0],
      ['pets', 'openapi-3.0', '3.0.3', 'Pets', 1, 0, false, [], 1],
    ]);
    assert.ok(specs.every((s) => s.ms >= 0 && s.ms <= Math.ceil(wall)), `${JSON.stringify(specs.map((s) => s.ms))} in ${wall} ms`);
    const text = await check('specs:\n  - broken.yaml\n', false);
    assert.equal(text.code, 1);
    assert.match(text.out, /^broken \[default\] \S*broken\.yaml: FAILED, /);
  });

  it('shows its progress on a terminal while a long check runs, and clears it', async () => {
    // Each big spec takes well over the line's 300 ms quiet period to import, so the counts after it show.
    const ops = Array.from({ length: 20000 }, (_, i) => `  /r${i}/{id}:\n    get:\n      summary: Read resource ${i}\n      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]\n      responses: { "200": { description: ok } }\n`).join('');
    for (const name of ['big1', 'big2']) writeFileSync(join(dir, `${name}.yaml`), `openapi: 3.0.3\ninfo: { title: Big, version: "1" }\npaths:\n${ops}`);
    const file = join(dir, 'svc-big.yaml');
    writeFileSync(file, 'specs:\n  - big1.yaml\n  - pets.yaml\n  - big2.yaml\n');
    const stderr = captureStream(true, 200);
    const code = await runCli(['node', 'svc', 'check', '--json', '--config', file], { stdout: captureStream(false, 80), stderr, env: {} });
    assert.equal(code, 0, stderr.text);
    assert.match(stderr.text, /\d\/3 \S*(big\d|pets)\.yaml/);
    assert.match(stderr.text, /[123]\/3 /, 'a spec done is counted');
    assert.ok(stderr.text.endsWith('\r\u001b[2K'), JSON.stringify(stderr.text.slice(-40)));
  });

  it('with --json, a broken svc.yaml prints its problems as JSON and fails with them on stderr', async () => {
    const r = await check('specs: 7\n', true);
    assert.equal(r.code, 1);
    const parsed = JSON.parse(r.out) as { specs: unknown[]; config: { file: string; problems: { key: string; message: string }[] } };
    assert.deepEqual(parsed.specs, []);
    assert.equal(parsed.config.file, r.file);
    assert.ok(parsed.config.problems.length > 0 && parsed.config.problems.every((p) => typeof p.message === 'string'));
    assert.match(r.err, /^svc: .*1 problem/);
    const text = await check('specs: 7\n', false);
    assert.equal(text.code, 1);
    assert.equal(text.out, '');
  });

  it('warns, per setting, about a credential variable that is not set, naming the key and the spec, never failing', async () => {
    delete process.env['SVC_TEST_UNSET_A'];
    delete process.env['SVC_TEST_UNSET_B'];
    process.env['SVC_TEST_SET'] = 'a-long-enough-secret';
    try {
      const r = await check(
        'specs:\n  - path: pets.yaml\n    auth:\n      - { type: bearer, token: "${SVC_TEST_UNSET_A}" }\n      - { type: basic, username: u, password: "${SVC_TEST_SET}" }\n    headers: { X-A: "${SVC_TEST_UNSET_B}", X-B: "${SVC_TEST_SET}", X-C: plain }\n',
        true,
      );
      assert.equal(r.code, 0, r.err);
      const warnings = (JSON.parse(r.out) as { specs: CheckReport[] }).specs[0]!.warnings.filter((w) => w.code === 'env-unset');
      assert.deepEqual(warnings, [
        { severity: 'warning', code: 'env-unset', message: 'environment variable SVC_TEST_UNSET_A (auth[0].token of spec pets) is not set; invoke will fail without it', file: r.file, line: 2, hint: 'set SVC_TEST_UNSET_A in the environment svc runs in' },
        { severity: 'warning', code: 'env-unset', message: 'environment variable SVC_TEST_UNSET_B (headers.X-A of spec pets) is not set; invoke will fail without it', file: r.file, line: 2, hint: 'set SVC_TEST_UNSET_B in the environment svc runs in' },
      ]);
    } finally {
      delete process.env['SVC_TEST_SET'];
    }
  });
});
