// The container and Kubernetes examples hold what the README promises: a small Node base image,
// a non-root user, HTTP on 0.0.0.0 with a token required, probes on /healthz and /readyz, and
// configs that svc's own loader accepts. (Docker and a cluster are not needed: the files are read.)
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

describe('deploy examples', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  /** A folder laid out like the container's /etc/svc: svc.yaml and specs/bookshelf.yaml. */
  const etcSvc = (svcYaml: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-deploy-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'specs'));
    copyFileSync(join(ROOT, 'specs', 'bookshelf.yaml'), join(dir, 'specs', 'bookshelf.yaml'));
    writeFileSync(join(dir, 'svc.yaml'), svcYaml.replaceAll('/etc/svc/', `${dir}/`));
    return join(dir, 'svc.yaml');
  };

  it('Dockerfile: small Node image, non-root user, HTTP on 0.0.0.0, health check on /healthz', () => {
    const dockerfile = read('Dockerfile');
    const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
    assert.ok(stages.length >= 1 && stages.every((image) => /^node:\d+-(alpine|slim)\b/.test(image)), `base images: ${stages.join(', ')}`);
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    assert.match(final, /^USER node$/m);
    assert.ok(final.indexOf('USER node') < final.indexOf('ENTRYPOINT'), 'svc runs as node, not root');
    assert.match(final, /^CMD \["serve", "--transport", "http", "--host", "0\.0\.0\.0", "--port", "7331"\]$/m);
    assert.match(final, /^HEALTHCHECK[\s\S]*\/healthz/m);
    assert.match(final, /ENV SVC_CONFIG=\/etc\/svc\/svc\.yaml/);
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'test', 'bench', '.ci', '.git']) assert.ok(ignored.includes(entry), `.dockerignore leaves out ${entry}`);
  });

  it('deploy/svc.yaml binds every address and names the token variable; the loader accepts it', async () => {
    const config = await loadConfig(etcSvc(read('deploy/svc.yaml')));
    assert.equal(config.serve.host, '0.0.0.0');
    assert.equal(config.serve.tokenEnv, 'SVC_TOKEN');
    assert.equal(config.specs.length, 1);
  });

  it('kubernetes.yaml: probes on /healthz and /readyz, non-root, token from a Secret, a config the loader accepts', async () => {
    const docs = parseAllDocuments(read('deploy/kubernetes.yaml')).map((d) => d.toJS() as Record<string, any>);
    const deployment = docs.find((d) => d['kind'] === 'Deployment')!;
    const service = docs.find((d) => d['kind'] === 'Service')!;
    const configMap = docs.find((d) => d['kind'] === 'ConfigMap')!;
    const pod = deployment['spec']['template']['spec'];
    const container = pod['containers'][0];
    assert.equal(container['livenessProbe']['httpGet']['path'], '/healthz');
    assert.equal(container['readinessProbe']['httpGet']['path'], '/readyz');
    assert.equal(container['startupProbe']['httpGet']['path'], '/healthz');
    assert.equal(pod['securityContext']['runAsNonRoot'], true);
    assert.deepEqual(container['args'], ['serve', '--transport', 'http', '--host', '0.0.0.0', '--port', '7331']);
    assert.equal(container['ports'][0]['containerPort'], 7331);
    assert.equal(service['spec']['ports'][0]['targetPort'], container['ports'][0]['name']);
    assert.ok(container['envFrom'].some((e: Record<string, any>) => e['secretRef']), 'secrets come from a Secret');
    const config = await loadConfig(etcSvc(configMap['data']['svc.yaml'] as string));
    assert.equal(config.serve.tokenEnv, 'SVC_TOKEN');
    assert.equal(config.serve.host, '0.0.0.0');
  });
});
