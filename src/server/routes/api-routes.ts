import type { RouteDef } from '../server-context.js';
import { alternateEmailRoutes } from './alternate-emails.js';
import { columnRoutes } from './columns.js';
import { discussionRoutes } from './discussions.js';
import { profileImageRoutes } from './profile-image.js';
import { sheetRoutes } from './sheets.js';
import { userLifecycleRoutes } from './user-lifecycle.js';
import { userPlanRoutes } from './user-plans.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';

/** The 35 operations of docs/service.md#operations plus GET /sheets. */
export const API_ROUTES: readonly RouteDef[] = [
  ...userRoutes,
  ...userLifecycleRoutes,
  ...userPlanRoutes,
  ...profileImageRoutes,
  ...alternateEmailRoutes,
  ...discussionRoutes,
  ...columnRoutes,
  ...webhookRoutes,
  ...sheetRoutes,
];
