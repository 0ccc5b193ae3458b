// `svc inspect ID --depth N` against a running daemon: the inspect tool's depth, from a terminal.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, project, startDaemon, svc, type Daemon, type Project } from '../daemon/support.ts';

describe('svc inspect --depth', () => {
  let p: Project;
  let daemon: Daemon;
  before(async () => {
    p = project();
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'specs', 'gallery', 'gallery.yaml'), p.write('specs/gallery.yaml', ''));
    p.config(['specs/gallery.yaml']);
    daemon = await startDaemon(p);
  });
  after(async () => {
    await daemon?.stop();
    p?.cleanup();
  });

  it('shows nested fields down to the depth asked for', async () => {
    const plain = await svc(p, ['inspect', 'gallery:POST:/pictures']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.doesNotMatch(plain.stdout, /focal/);
    const deep = await svc(p, ['inspect', 'gallery:POST:/pictures', '--depth', '4']);
    assert.equal(deep.code, 0, deep.stderr);
    assert.match(deep.stdout, /^ {8}focal \(number\(float\), e\.g\. 23\.5\)$/m);
  });

  it('refuses a depth past the bound with the tool\'s message', async () => {
    const run = await svc(p, ['inspect', 'gallery:POST:/pictures', '--depth', '9']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /depth must be at most 6/);
  });
});
