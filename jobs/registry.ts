import type { ActionName, ActionOf } from '../src/manifest/action.js';
import type { JobRegistry, JobType, Reversible } from '../src/queue/job-type.js';
import { addAlternateEmailJob } from './add-alternate-email.js';
import { addColumnJob } from './add-column.js';
import { addUserJob } from './add-user.js';
import { createDiscussionJob } from './create-discussion.js';
import { deactivateUserJob } from './deactivate-user.js';
import { deleteAlternateEmailJob } from './delete-alternate-email.js';
import { deleteColumnJob } from './delete-column.js';
import { deleteWebhookJob } from './delete-webhook.js';
import { disableWebhookJob } from './disable-webhook.js';
import { downgradeUserJob } from './downgrade-user.js';
import { enableWebhookJob } from './enable-webhook.js';
import { makeAlternateEmailPrimaryJob } from './make-alternate-email-primary.js';
import { reactivateUserJob } from './reactivate-user.js';
import { removeUserFromPlanJob } from './remove-user-from-plan.js';
import { removeUserJob } from './remove-user.js';
import { resetWebhookSecretJob } from './reset-webhook-secret.js';
import { setProfileImageJob } from './set-profile-image.js';
import { updateColumnJob } from './update-column.js';
import { updateUserJob } from './update-user.js';
import { updateWebhookJob } from './update-webhook.js';
import { upgradeUserJob } from './upgrade-user.js';

/**
 * One job type per action; the mapped type makes a missing or misfiled action a compile error, and so does a job type
 * that does not say how its rows are inverted (`seatflow revert`).
 */
const JOBS: { readonly [N in ActionName]: JobType<ActionOf<N>> & Required<Pick<Reversible<ActionOf<N>>, 'inverse'>> } = {
  add: addUserJob,
  update: updateUserJob,
  deactivate: deactivateUserJob,
  reactivate: reactivateUserJob,
  remove: removeUserJob,
  downgrade: downgradeUserJob,
  upgrade: upgradeUserJob,
  'remove-from-plan': removeUserFromPlanJob,
  'add-alternate-email': addAlternateEmailJob,
  'delete-alternate-email': deleteAlternateEmailJob,
  'make-alternate-email-primary': makeAlternateEmailPrimaryJob,
  'set-profile-image': setProfileImageJob,
  'add-column': addColumnJob,
  'update-column': updateColumnJob,
  'delete-column': deleteColumnJob,
  'create-discussion': createDiscussionJob,
  'enable-webhook': enableWebhookJob,
  'disable-webhook': disableWebhookJob,
  'reset-webhook-secret': resetWebhookSecretJob,
  'delete-webhook': deleteWebhookJob,
  'update-webhook': updateWebhookJob,
};

/** The registry the queue receives (it never imports jobs/): action name → job type. */
export function createJobRegistry(): JobRegistry {
  return new Map((Object.keys(JOBS) as ActionName[]).map((name) => [name, JOBS[name] as JobType]));
}
