import type { OperatorAction } from './operator-action.js';

/**
 * IT runs a leaver's next step now with the command line (`seatflow steps run OFFBOARDING --user EMAIL --yes
 * --no-wait`): a leave date brought forward, or a hold ended early. What the command says runs now is promised from
 * now: a deactivation now (and the removal a hold after it), or the removal now.
 */
export const runStepNow: OperatorAction = {
  name: 'steps-run',
  background: true,
  perDay: 0.5,
  hours: [9, 18],
  draw(context) {
    const offboardings = context.earlier.filter((event) => event.kind === 'action' && event.name === 'offboard');
    if (offboardings.length === 0) return undefined;
    const event = context.draw.pick(offboardings.slice(-4));
    const leavers = (event.params.leavers as { email: string }[] | undefined) ?? [];
    return leavers.length === 0 ? undefined : { ref: event.seq, email: context.draw.pick(leavers).email };
  },
  async perform(params, context) {
    const handle = await context.handle(Number(params.ref));
    const email = String(params.email);
    if (handle?.workflowId === undefined) {
      await context.note(`steps run: event #${String(params.ref)} left no offboarding`);
      return;
    }
    const at = await context.now();
    const result = await context.world.cli(['steps', 'run', handle.workflowId, '--user', email, '--yes', '--no-wait', '--by', 'it-ops']);
    const ran = /^(\S+): (deactivate|remove) runs now/m.exec(result.stdout);
    if (ran !== null) {
      const step = ran[2]!;
      const holdMs = handle.holdMs ?? 0;
      context.ledger.amend(`${handle.workflowId}:${email}:${step}`, { notBefore: at }, at, `${step} run now by it-ops (steps run)`);
      if (step === 'deactivate') context.ledger.amend(`${handle.workflowId}:${email}:remove`, { notBefore: at + holdMs }, at, 'the hold counts from the deactivation run now');
    }
    const said = `${result.stdout}${result.stderr}`.trim().split('\n').filter((line) => line.includes(email) || /error|refused|no step/i.test(line)).join(' | ');
    await context.note(`steps run ${handle.workflowId} --user ${email}: exit ${result.code}; ${said.slice(0, 300)}`);
  },
};
