import { createSilentLogger } from '../../../src/core/logger.js';
import { actionSchema, type ActionInput } from '../../../src/manifest/action.js';
import type { ResolvedTarget } from '../../../src/plan/planned-row.js';
import type { JobContext } from '../../../src/queue/job-type.js';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { createFakeApi, type FakeApi, type FakeUser } from './fake-api.js';

/** A slice of the demo organization (BRIEF.md), small enough to read in a test. */
export const PLAN = 5420192837465012;
export const LABS_PLAN = 5420192837465013;
export const SHEET = 2094857361029384;
export const IDS = {
  admin: 1001,
  dana: 1002,
  marcus: 1003,
  elena: 1004,
  taylor: 1005,
  casey: 1006,
  chris: 1007,
  chrisAlternate: 1107,
  noah: 1008,
  assetTag: 3001,
  notes: 3002,
  status: 3003,
  userWebhook: 4001,
  disabledWebhook: 4002,
} as const;

function user(id: number, email: string, extra: Partial<FakeUser> = {}): [number, FakeUser] {
  const [first = '', last = ''] = email.split('@')[0]!.split('.');
  return [
    id,
    {
      id,
      email,
      firstName: first,
      lastName: last,
      status: 'ACTIVE',
      admin: false,
      plans: [{ planId: PLAN, seatType: 'MEMBER' }],
      alternates: [],
      ...extra,
    },
  ];
}

export function createDemoFake(): FakeApi {
  return createFakeApi({
    users: new Map([
      user(IDS.admin, 'admin@acme.example', { admin: true }),
      user(IDS.dana, 'dana.whitfield@acme.example', { groupAdmin: true, licensedSheetCreator: true }),
      user(IDS.marcus, 'marcus.chen@acme.example'),
      user(IDS.elena, 'elena.garcia@acme.example', { admin: true }),
      user(IDS.taylor, 'taylor.brooks@acme.example', { status: 'DEACTIVATED' }),
      user(IDS.casey, 'casey.nguyen@acme.example', { plans: [{ planId: PLAN, seatType: 'VIEWER' }] }),
      user(IDS.chris, 'chris.morgan@acme.example', { alternates: [{ id: IDS.chrisAlternate, email: 'chris.m@acme.example', confirmed: true }] }),
      user(IDS.noah, 'noah.fischer@acme.example', {
        plans: [
          { planId: PLAN, seatType: 'MEMBER' },
          { planId: LABS_PLAN, seatType: 'MEMBER' },
        ],
      }),
    ]),
    sheets: new Map([
      [
        SHEET,
        {
          columns: [
            { id: IDS.assetTag, index: 0, title: 'Asset Tag', type: 'TEXT_NUMBER', primary: true },
            { id: IDS.status, index: 1, title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare', 'Retired'] },
            { id: IDS.notes, index: 2, title: 'Notes', type: 'TEXT_NUMBER' },
          ],
          discussions: [],
        },
      ],
    ]),
    webhooks: new Map([
      [IDS.userWebhook, { id: IDS.userWebhook, name: 'Asset feed', enabled: true, status: 'ENABLED', sharedSecret: 'old-secret' }],
      [IDS.disabledWebhook, { id: IDS.disabledWebhook, name: 'Old feed', enabled: false, status: 'DISABLED_BY_OWNER' }],
    ]),
  });
}

export interface ContextOptions {
  batchId?: string;
  row?: number;
  previousAttemptUncertain?: boolean;
}

/** A job context for one manifest row, parsed by the real action schema. */
export function contextFor<A extends ActionInput>(
  api: SmartsheetApi,
  input: A,
  target: ResolvedTarget = {},
  options: ContextOptions = {},
): JobContext<Extract<ReturnType<typeof actionSchema.parse>, { action: A['action'] }>> {
  return {
    api,
    action: actionSchema.parse(input) as Extract<ReturnType<typeof actionSchema.parse>, { action: A['action'] }>,
    target,
    batchId: options.batchId ?? 'b-test',
    row: options.row ?? 1,
    previousAttemptUncertain: options.previousAttemptUncertain ?? false,
    signal: new AbortController().signal,
    logger: createSilentLogger(),
  };
}
