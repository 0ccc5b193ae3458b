// The import worker's job handling when its answer cannot be sent (src/daemon/import-worker.ts,
// serveJobs), in this process over a real MessageChannel: a job whose failure could not go out
// is still answered once, inline with why (its core never went, so the caller imports it itself).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import type { WorkerMessage } from '../../src/daemon/import-pool.ts';
import { serveJobs, type JobPort } from '../../src/daemon/import-worker.ts';
import { temp } from '../snapshot/support.ts';

const tmp = temp();
const { port1, port2 } = new MessageChannel();
after(() => {
  port1.close();
  tmp.cleanup();
});

it('answers inline when the failure of a job could not be sent', async () => {
  const broken = path.join(tmp.dir, 'broken.yaml');
  writeFileSync(broken, 'openapi: 3.0.3\ninfo: [\n');
  let refused = false;
  // A channel that refuses the first answer that is not a core (as a closed one would).
  serveJobs({
    on: port1.on.bind(port1),
    postMessage(message: WorkerMessage, transfer?: ArrayBuffer[]) {
      if (message.kind === 'failed' && !refused) {
        refused = true;
        throw new Error('the channel refused it');
      }
      port1.postMessage(message, transfer);
    },
  } as JobPort);
  const answer = new Promise<WorkerMessage>((resolve) => port2.once('message', resolve));
  port2.postMessage({ id: 9, file: broken, options: { name: 'b', collection: 'default' } });
  assert.deepEqual(await answer, { id: 9, kind: 'inline', reason: 'worker error: the channel refused it' });
});
