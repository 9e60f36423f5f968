import { describe, expect, it } from 'vitest';
import { createTransferTargets, TARGET_READ_MS } from '../../../src/workflow/transfer-targets.js';
import { useCountedClient } from '../../helpers/counted-client.js';

const counted = useCountedClient({ users: 20 });
const { calls } = counted;

const dana = 'dana.whitfield@acme.example';

describe('createTransferTargets', () => {
  it('reads a target once per offboarding while its removals run close together, again after a minute or for another offboarding', async () => {
    let now = 1_000_000;
    const targets = createTransferTargets(() => now);
    calls.length = 0;
    const reads = await Promise.all(Array.from({ length: 20 }, () => targets.read({ workflowId: 'o1', email: dana, planned: undefined, api: counted.api })));
    expect(new Set(reads.map((user) => user?.email))).toEqual(new Set([dana]));
    expect(calls).toEqual(['users.list']);
    await targets.read({ workflowId: 'o2', email: dana, planned: undefined, api: counted.api });
    expect(calls).toHaveLength(2);
    now += TARGET_READ_MS;
    await targets.read({ workflowId: 'o1', email: dana, planned: undefined, api: counted.api });
    expect(calls).toHaveLength(3);
  });

  it('reads by id when the plan resolved the target, and reads again once told to forget (a target that could not take over)', async () => {
    const targets = createTransferTargets(() => 5);
    const id = [...counted.server.context.state.users.values()].find((user) => user.email === dana)!.id;
    calls.length = 0;
    expect((await targets.read({ workflowId: 'o1', email: dana, planned: { email: dana, userId: id }, api: counted.api }))?.id).toBe(id);
    await targets.read({ workflowId: 'o1', email: dana, planned: { email: dana, userId: id }, api: counted.api });
    expect(calls).toEqual(['users.get']);
    targets.forget('o1');
    await targets.read({ workflowId: 'o1', email: dana, planned: { email: dana, userId: id }, api: counted.api });
    expect(calls).toEqual(['users.get', 'users.get']);
    expect(await targets.read({ workflowId: 'o1', email: 'nobody@acme.example', planned: undefined, api: counted.api })).toBeUndefined();
  });
});
