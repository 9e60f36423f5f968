import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import { createReplicatedWrites } from '../../../src/queue/redis/replicated-write.js';
import { createPersonStore, type PersonStore } from '../../../src/workflow/person-store.js';
import { personBaseSchema, type PersonBase } from '../../../src/workflow/workflow-shapes.js';
import { useMasterAndReplica } from '../../helpers/master-and-replica.js';
import { resendingScript } from '../../helpers/resending-script.js';

const servers = useMasterAndReplica();


const WORKFLOW = 'o123';
const scheduled: PersonBase = { row: 1, line: 2, email: 'ann@acme.example', phase: 'scheduled', version: 0, notes: [], steps: [] };
/** An undo as undo-offboarding.ts makes it: only from the waiting phase. */
const undo = (person: PersonBase): PersonBase | undefined => (person.phase === 'scheduled' ? { ...person, phase: 'undone' } : undefined);

/** A store whose writes want one replica (WAIT 1 100, as behind Sentinel but shorter); no replica is attached yet. */
async function storeOverMaster(): Promise<{ store: PersonStore<PersonBase>; key: string }> {
  const keys = createQueueKeys(servers.master.prefix());
  const replicated = createReplicatedWrites({ redis: servers.client, replicas: { count: 1, timeoutMs: 100 }, logger: createSilentLogger(), what: 'test' });
  const store = createPersonStore(servers.client, keys, personBaseSchema, replicated);
  await store.save(WORKFLOW, [scheduled]);
  return { store, key: keys.leavers(WORKFLOW) };
}

/** Waits until the master holds the person at `version` (the update's write is made), at most 10 s. */
async function written(key: string, version: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (personBaseSchema.parse(JSON.parse((await servers.client.hget(key, '1')) ?? '{}')).version !== version) {
    if (Date.now() > deadline) throw new Error(`the master never held version ${version}: the write was not made (again)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function onReplica(key: string): Promise<PersonBase> {
  return personBaseSchema.parse(JSON.parse((await servers.replicaClient.hget(key, '1')) ?? '{}'));
}

describe('createPersonStore update behind replicas', () => {
  it('makes the state again when the master it reaches lost it: an undo answered "undone" stays undone', async () => {
    const { store, key } = await storeOverMaster();
    const updated = store.update(WORKFLOW, 1, undo);
    await written(key, 1);
    // A failover to a replica that had the person before the undo only; the replica comes once the undo is made again
    // (came sooner, it would hold the loss as the master's latest write).
    await servers.client.hset(key, '1', JSON.stringify(scheduled));
    await written(key, 1);
    await servers.replicaClient.replicaof('127.0.0.1', servers.master.port);
    expect((await updated)?.phase).toBe('undone');
    expect(await onReplica(key)).toMatchObject({ phase: 'undone', version: 1 });
  });

  it('decides again over the state that took the lost write\'s place, and says so when the change no longer applies', async () => {
    const { store, key } = await storeOverMaster();
    const updated = store.update(WORKFLOW, 1, undo);
    await written(key, 1);
    // The undo was lost with the old master, and a step that read the state before it moved the person on.
    await servers.client.hset(key, '1', JSON.stringify({ ...scheduled, phase: 'deactivating', version: 1 }));
    // The replica comes after a repeat met that state (one every 350 ms while none holds the write: WAIT 100, a pause).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await servers.replicaClient.replicaof('127.0.0.1', servers.master.port);
    expect(await updated).toBeUndefined();
    expect(await onReplica(key)).toMatchObject({ phase: 'deactivating', version: 1 });
  });
});

describe('createPersonStore update when the answer to its write was lost', () => {
  it('takes the write Redis made for its own when the connection sent it again: the caller goes on from it', async () => {
    const keys = createQueueKeys(servers.master.prefix());
    const store = createPersonStore(resendingScript(servers.client, 'seatflowLeaverCompareAndSet'), keys, personBaseSchema);
    await store.save(WORKFLOW, [scheduled]);
    expect(await store.update(WORKFLOW, 1, undo)).toMatchObject({ phase: 'undone', version: 1 });
    // A write that is not the caller's still refuses: the person moved on from the version it read.
    expect(await store.update(WORKFLOW, 1, undo)).toBeUndefined();
  });
});
