import type { ParsedFixture } from './fixture-schema.js';
import { generateUsers } from './generated-users.js';

/** Fixed ids and tokens of the demo organization (docs/reference-server.md#the-demo-organization). */
export const DEMO = {
  orgId: 1029384756102938,
  planId: 5420192837465012,
  labsPlanId: 5420192837465013,
  itAssetSheetId: 2094857361029384,
  apolloSheetId: 2094857361029385,
  adminToken: 'sim-admin-token',
  userToken: 'sim-user-token',
  appToken: 'sim-app-token',
  appId: 'acme-hr-sync',
} as const;

type User = ParsedFixture['users'][number];

function person(email: string, first: string, last: string, extra: Partial<User> = {}): User {
  return {
    email, firstName: first, lastName: last, admin: false, licensedSheetCreator: true, groupAdmin: false, resourceViewer: false,
    status: 'ACTIVE', externallyManaged: false, alternateEmails: [], seatType: 'MEMBER', lastLoginDaysAgo: 2, ...extra,
  };
}

/** The story users every example manifest and test refers to. */
function storyUsers(): User[] {
  const main = DEMO.planId;
  return [
    person('admin@acme.example', 'Avery', 'Admin', { admin: true, groupAdmin: true, resourceViewer: true }),
    person('dana.whitfield@acme.example', 'Dana', 'Whitfield', { groupAdmin: true }),
    person('jordan.lee@acme.example', 'Jordan', 'Lee'),
    person('priya.shah@acme.example', 'Priya', 'Shah', { groupAdmin: true }),
    person('marcus.chen@acme.example', 'Marcus', 'Chen', { lastLoginDaysAgo: 134 }),
    person('elena.garcia@acme.example', 'Elena', 'Garcia', { admin: true }),
    person('sam.taylor@gmail.com', 'Sam', 'Taylor'),
    person('alex.kim@acme.example', 'Alex', 'Kim', { externallyManaged: true, externalSource: 'Okta' }),
    person('taylor.brooks@acme.example', 'Taylor', 'Brooks', { status: 'DEACTIVATED', deactivatedDaysAgo: 3 }),
    person('morgan.price@acme.example', 'Morgan', 'Price', { status: 'DEACTIVATED', deactivatedDaysAgo: 45 }),
    person('casey.nguyen@acme.example', 'Casey', 'Nguyen', { seatType: 'VIEWER', licensedSheetCreator: false }),
    person('riley.owens@acme.example', 'Riley', 'Owens', { seatType: 'PROVISIONAL_MEMBER', seats: [{ planId: main, seatType: 'PROVISIONAL_MEMBER', provisionalExpiresInDays: 14 }] }),
    person('jamie.fox@partner.example', 'Jamie', 'Fox', { seatType: 'GUEST', licensedSheetCreator: false }),
    // External (isInternal: false) with a CONTRIBUTOR seat: the one kind of user GUEST is an upgrade target for.
    person('lee.park@partner.example', 'Lee', 'Park', { seatType: 'CONTRIBUTOR', licensedSheetCreator: false }),
    person('pat.quinn@acme.example', 'Pat', 'Quinn', { status: 'PENDING', licensedSheetCreator: false, seatType: 'VIEWER', lastLoginDaysAgo: undefined, invitedDaysAgo: 41 }),
    person('chris.morgan@acme.example', 'Chris', 'Morgan', { alternateEmails: [{ email: 'chris.m@acme.example', confirmed: true }] }),
    person('noah.fischer@acme.example', 'Noah', 'Fischer', { seats: [{ planId: main, seatType: 'MEMBER' }, { planId: DEMO.labsPlanId, seatType: 'MEMBER' }] }),
  ];
}

const ASSET_STATUSES = ['In use', 'Spare', 'Retired'];
const OWNERS = ['dana.whitfield@acme.example', 'jordan.lee@acme.example', 'marcus.chen@acme.example', 'priya.shah@acme.example'];

function sheets(): ParsedFixture['sheets'] {
  const assetRows = Array.from({ length: 20 }, (_, i) => ({
    'Asset Tag': `IT-${String(1001 + i)}`,
    Owner: { email: OWNERS[i % OWNERS.length] ?? 'admin@acme.example' },
    Status: ASSET_STATUSES[i % 3] ?? 'Spare',
    Purchased: `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
    Notes: i % 4 === 0 ? 'Laptop' : i % 4 === 1 ? '1' : i % 4 === 2 ? 'true' : 'Monitor',
  }));
  const col = (title: string, type: ParsedFixture['sheets'][number]['columns'][number]['type'], extra = {}) => ({ title, type, primary: false, width: 150, ...extra });
  return [
    {
      id: DEMO.itAssetSheetId, name: 'IT Asset Register', ownerEmail: 'admin@acme.example', dependenciesEnabled: false,
      sharing: { 'dana.whitfield@acme.example': 'EDITOR', 'jordan.lee@acme.example': 'VIEWER', 'marcus.chen@acme.example': 'COMMENTER' },
      columns: [
        col('Asset Tag', 'TEXT_NUMBER', { primary: true }),
        col('Owner', 'CONTACT_LIST'),
        col('Status', 'PICKLIST', { options: ASSET_STATUSES }),
        col('Purchased', 'DATE'),
        col('Notes', 'TEXT_NUMBER'),
      ],
      rows: assetRows,
      discussions: [{ comments: [{ text: 'Quarterly asset audit starts Monday.', authorEmail: 'admin@acme.example' }] }],
    },
    {
      id: DEMO.apolloSheetId, name: 'Project Apollo', ownerEmail: 'admin@acme.example', dependenciesEnabled: true,
      sharing: { 'dana.whitfield@acme.example': 'ADMIN', 'priya.shah@acme.example': 'EDITOR', 'marcus.chen@acme.example': 'VIEWER' },
      columns: [
        col('Task Name', 'TEXT_NUMBER', { primary: true }),
        col('Start', 'DATE', { tags: ['GANTT_START_DATE'] }),
        col('Finish', 'DATE', { tags: ['GANTT_END_DATE'] }),
        col('Duration', 'DURATION', { tags: ['GANTT_DURATION'] }),
        col('Predecessors', 'PREDECESSOR', { tags: ['GANTT_PREDECESSOR'] }),
        col('Assigned To', 'CONTACT_LIST', { tags: ['GANTT_ASSIGNED_RESOURCE'] }),
        col('% Complete', 'TEXT_NUMBER', { tags: ['GANTT_PERCENT_COMPLETE'] }),
        col('Labels', 'MULTI_PICKLIST', { options: ['backend', 'frontend', 'infra'] }),
        col('Reviewers', 'MULTI_CONTACT_LIST'),
      ],
      rows: [
        { 'Task Name': 'Design', Start: '2025-01-06', Finish: '2025-01-17', Duration: '10d', 'Assigned To': { email: 'priya.shah@acme.example' }, '% Complete': 1, Labels: ['backend'] },
        { 'Task Name': 'Build', Start: '2025-01-20', Finish: '2025-02-28', Duration: '30d', Predecessors: '1', 'Assigned To': { email: 'jordan.lee@acme.example' }, '% Complete': 0.4, Labels: ['backend', 'frontend'] },
        { 'Task Name': 'Launch', Start: '2025-03-03', Finish: '2025-03-03', Duration: '0', Predecessors: '2', '% Complete': 0, Reviewers: [{ email: 'dana.whitfield@acme.example' }] },
      ],
      discussions: [
        { comments: [{ text: 'Kick-off notes are in the shared drive.', authorEmail: 'admin@acme.example' }, { text: 'Thanks, reviewed.', authorEmail: 'dana.whitfield@acme.example' }] },
        { rowIndex: 1, comments: [{ text: 'Build slipped a week because of the vendor API.', authorEmail: 'priya.shah@acme.example' }] },
      ],
    },
    {
      name: 'Jordan – Q4 Pipeline', ownerEmail: 'jordan.lee@acme.example', dependenciesEnabled: false,
      sharing: { 'admin@acme.example': 'ADMIN', 'marcus.chen@acme.example': 'EDITOR' },
      columns: [col('Deal', 'TEXT_NUMBER', { primary: true }), col('Amount', 'TEXT_NUMBER'), col('Close', 'DATE')],
      rows: [{ Deal: 'Globex renewal', Amount: 120000, Close: '2025-11-30' }, { Deal: 'Initech expansion', Amount: 45000, Close: '2025-12-15' }],
      discussions: [],
    },
    {
      name: 'Jordan – Hiring Plan', ownerEmail: 'jordan.lee@acme.example', dependenciesEnabled: false,
      sharing: { 'admin@acme.example': 'ADMIN', 'dana.whitfield@acme.example': 'VIEWER' },
      columns: [col('Role', 'TEXT_NUMBER', { primary: true }), col('Hiring Manager', 'CONTACT_LIST'), col('Open', 'CHECKBOX')],
      rows: [{ Role: 'Data Engineer', 'Hiring Manager': { email: 'priya.shah@acme.example' }, Open: true }],
      discussions: [],
    },
  ];
}

export interface DemoOptions {
  adminToken?: string;
  /** Generated users besides the story users; default 300. */
  generatedUsers?: number;
}

/** The deterministic demo organization "Acme Corp" as a fixture. */
export function createDemoFixture(options: DemoOptions = {}): ParsedFixture {
  const generated = generateUsers(options.generatedUsers ?? 300, DEMO.planId, DEMO.labsPlanId);
  return {
    organization: { id: DEMO.orgId, name: 'Acme Corp' },
    plans: [
      { id: DEMO.planId, name: 'Acme Corp', domains: ['acme.example'] },
      { id: DEMO.labsPlanId, name: 'Acme Labs', domains: ['labs.acme.example'] },
    ],
    apps: [{ id: DEMO.appId, name: 'Acme HR Sync' }],
    users: [...storyUsers(), ...generated],
    tokens: [
      { token: options.adminToken ?? DEMO.adminToken, userEmail: 'admin@acme.example' },
      { token: DEMO.userToken, userEmail: 'dana.whitfield@acme.example' },
      { token: DEMO.appToken, userEmail: 'admin@acme.example', appId: DEMO.appId },
    ],
    groups: [
      { name: 'Data Platform', description: 'Data platform team', ownerEmail: 'priya.shah@acme.example', memberEmails: ['jordan.lee@acme.example', 'noah.fischer@acme.example'] },
      { name: 'IT Admins', description: 'IT administrators', ownerEmail: 'admin@acme.example', memberEmails: ['elena.garcia@acme.example'] },
    ],
    sheets: sheets(),
    webhooks: [
      { name: 'Asset register changes', callbackUrl: 'https://hooks.acme.example/it-assets', scope: 'sheet', sheetName: 'IT Asset Register', events: ['*.*'], status: 'ENABLED', ownerEmail: 'admin@acme.example', createdDaysAgo: 30 },
      { name: 'HR Sync seat changes', callbackUrl: 'https://hr-sync.acme.example/smartsheet', scope: 'plan', planId: DEMO.planId, events: ['user.*'], status: 'ENABLED', appId: DEMO.appId, createdDaysAgo: 10 },
    ],
  };
}
