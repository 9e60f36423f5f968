import { paginate, readPaging } from '../http/paging.js';
import { queryIncludes } from '../http/query.js';
import type { RouteDef } from '../server-context.js';
import { sheetSummaryView } from '../state/sheet-views.js';
import { accessLevelOf } from './route-helpers.js';

/**
 * GET /sheets: the sheets the caller owns or that are shared with it, so clients can find sheet ids by name. `owner`
 * and `ownerId` come only with `include=ownerInfo` (the Python SDK's "List Sheets - Include Owner Info" scenario).
 */
export const sheetRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/sheets',
    operation: 'listSheets',
    handle: (ctx) => {
      const { state } = ctx.server;
      const withOwner = queryIncludes(ctx.query).has('ownerinfo');
      const visible = [...state.sheets.values()].flatMap((sheet) => {
        const level = accessLevelOf(sheet, ctx.principal.user);
        return level === undefined ? [] : [{ sheet, level }];
      });
      return paginate(visible, readPaging(ctx.query), ({ sheet, level }) =>
        sheetSummaryView(sheet, level, withOwner ? { owner: state.users.get(sheet.ownerId) } : undefined, ctx.dates),
      );
    },
  },
];
