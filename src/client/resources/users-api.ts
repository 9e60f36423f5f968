import { z } from 'zod';
import {
  DOWNGRADE_SEAT_TYPES,
  LIST_USERS_MAX_PAGE_SIZE,
  SEAT_TYPES,
  UPGRADE_SEAT_TYPES,
  USER_PLAN_INCLUSIONS,
  userCreateSchema,
  userPlanSchema,
  userProfileSchema,
  userSchema,
  userUpdateSchema,
} from '../../contract/index.js';
import { optionalPositiveInt, pathOf, requireId, requireValid } from '../arguments.js';
import { readBare, readDone, readIndexResult, readResultObject, readTokenPage } from '../envelope-readers.js';
import { iterateOffsetPages, iterateTokenPages } from '../paging.js';
import { prepareUpload, UPLOAD_LIMITS } from '../upload-source.js';
import { invalidArgument } from '../error-factory.js';
import type { Transport } from '../transport.js';
import type { UsersApi } from '../smartsheet-api.js';
import type { SeatNaming } from '../seat-naming.js';

/** Uploads count 10 against the rate limit (docs/service.md#rate-limits). */
const UPLOAD_COST = 10;

// include=groups: the Java and Python SDKs read `groups`, the OpenAPI file and the SDK mocks put it under `data`
// (docs/service.md#where-the-sources-disagree).
const readProfile = readBare(
  z.preprocess((body) => {
    if (body !== null && typeof body === 'object' && !('groups' in body) && Array.isArray((body as { data?: unknown }).data)) {
      const { data, ...rest } = body as { data: unknown[] };
      return { ...rest, groups: data };
    }
    return body;
  }, userProfileSchema),
);

const readUserPage = readIndexResult(userSchema);
const readUserPlanPage = readTokenPage(userPlanSchema);

/** The documented minimum (and default) of maxItems for the plans list: the service takes a smaller one as 100. */
const MIN_PLAN_PAGE = 100;

export function createUsersApi(transport: Transport, seatNaming: SeatNaming): UsersApi {
  const api: UsersApi = {
    async add(user, options = {}) {
      const operation = 'users.add';
      const body = requireValid(operation, 'user', userCreateSchema, user);
      return transport.send(
        {
          operation,
          method: 'POST',
          path: pathOf('users'),
          query: { sendEmail: options.sendEmail, allowInviteAccountAdmin: options.allowInviteAccountAdmin },
          json: body,
          signal: options.signal,
        },
        readResultObject(userSchema),
      );
    },

    async listPage(options = {}) {
      const operation = 'users.list';
      if (options.seatType !== undefined) requireValid(operation, 'seatType', z.enum(SEAT_TYPES), options.seatType);
      // Refused here rather than sent: the service answers 400/1229, or for includeAll silently only 2000 users.
      if ((options as { includeAll?: unknown }).includeAll === true) {
        throw invalidArgument(operation, `includeAll answers only the first ${LIST_USERS_MAX_PAGE_SIZE} users of GET /users; page through them (users.list() does)`);
      }
      const pageSize = optionalPositiveInt(operation, 'pageSize', options.pageSize);
      if (pageSize !== undefined && pageSize > LIST_USERS_MAX_PAGE_SIZE) {
        throw invalidArgument(operation, `pageSize ${pageSize} is above the service's maximum of ${LIST_USERS_MAX_PAGE_SIZE} for GET /users`);
      }
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('users'),
          query: {
            email: options.email,
            include: options.include,
            planId: options.planId === undefined ? undefined : requireId(operation, 'planId', options.planId),
            // VIEWER and CONTRIBUTOR name one seat; the filter takes the name the service knows today.
            seatType: options.seatType === undefined ? undefined : seatNaming(options.seatType),
            displayContributorSeatType: options.displayContributorSeatType,
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize,
          },
          signal: options.signal,
        },
        readUserPage,
      );
    },

    list(options = {}) {
      return iterateOffsetPages((page) => api.listPage({ ...options, page }), { pageSize: options.pageSize });
    },

    async getCurrent(options = {}) {
      return transport.send(
        { operation: 'users.getCurrent', method: 'GET', path: pathOf('users', 'me'), query: { include: options.include }, signal: options.signal },
        readProfile,
      );
    },

    async get(userId, options = {}) {
      const operation = 'users.get';
      return transport.send(
        { operation, method: 'GET', path: pathOf('users', requireId(operation, 'userId', userId)), query: { include: options.include }, signal: options.signal },
        readProfile,
      );
    },

    async update(userId, changes, options = {}) {
      const operation = 'users.update';
      const id = requireId(operation, 'userId', userId);
      const body = requireValid(operation, 'changes', userUpdateSchema, changes);
      return transport.send(
        { operation, method: 'PUT', path: pathOf('users', id), json: body, signal: options.signal },
        readResultObject(userSchema),
      );
    },

    async remove(userId, options = {}) {
      const operation = 'users.remove';
      const id = requireId(operation, 'userId', userId);
      return transport.send(
        {
          operation,
          method: 'DELETE',
          path: pathOf('users', id),
          // Query, as every SDK sends them (docs/service.md#where-the-sources-disagree).
          query: {
            transferTo: options.transferTo === undefined ? undefined : requireId(operation, 'transferTo', options.transferTo),
            transferSheets: options.transferSheets,
            removeFromSharing: options.removeFromSharing,
          },
          signal: options.signal,
        },
        readDone,
      );
    },

    async deactivate(userId, options = {}) {
      const operation = 'users.deactivate';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'deactivate');
      return transport.send({ operation, method: 'POST', path, signal: options.signal }, readDone);
    },

    async reactivate(userId, options = {}) {
      const operation = 'users.reactivate';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'reactivate');
      return transport.send({ operation, method: 'POST', path, signal: options.signal }, readDone);
    },

    async downgrade(userId, planId, options) {
      const operation = 'users.downgrade';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'plans', requireId(operation, 'planId', planId), 'downgrade');
      if (options === null || options === undefined) throw invalidArgument(operation, 'options with seatType are required');
      const seatType = seatNaming(requireValid(operation, 'seatType', z.enum(DOWNGRADE_SEAT_TYPES), options.seatType));
      const json = options.removeAdminStatus === undefined ? { seatType } : { seatType, removeAdminStatus: options.removeAdminStatus };
      return transport.send({ operation, method: 'POST', path, json, signal: options.signal }, readDone);
    },

    async upgrade(userId, planId, options = {}) {
      const operation = 'users.upgrade';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'plans', requireId(operation, 'planId', planId), 'upgrade');
      const seatType = options.seatType ?? undefined;
      if (seatType !== undefined) requireValid(operation, 'seatType', z.enum(UPGRADE_SEAT_TYPES), seatType);
      // `{}` when no seat type: the service then upgrades to MEMBER (docs/service.md#downgrade-and-upgrade).
      const json = seatType === undefined ? {} : { seatType };
      return transport.send({ operation, method: 'POST', path, json, signal: options.signal }, readDone);
    },

    async listPlansPage(userId, options = {}) {
      const operation = 'users.listPlans';
      const id = requireId(operation, 'userId', userId);
      const maxItems = optionalPositiveInt(operation, 'maxItems', options.maxItems);
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('users', id, 'plans'),
          query: {
            lastKey: options.lastKey,
            maxItems: maxItems === undefined ? undefined : Math.max(MIN_PLAN_PAGE, maxItems),
            include: options.includePlanName === true ? USER_PLAN_INCLUSIONS : undefined,
            displayContributorSeatType: options.displayContributorSeatType,
          },
          signal: options.signal,
        },
        readUserPlanPage,
      );
    },

    listPlans(userId, options = {}) {
      return iterateTokenPages('users.listPlans', (lastKey) => api.listPlansPage(userId, { ...options, ...(lastKey === undefined ? {} : { lastKey }) }));
    },

    async removeFromPlan(userId, planId, options = {}) {
      const operation = 'users.removeFromPlan';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'plans', requireId(operation, 'planId', planId));
      return transport.send({ operation, method: 'DELETE', path, signal: options.signal }, readDone);
    },

    async uploadProfileImage(userId, image, options = {}) {
      const operation = 'users.uploadProfileImage';
      const path = pathOf('users', requireId(operation, 'userId', userId), 'profileimage');
      const upload = await prepareUpload(operation, 'image', image, UPLOAD_LIMITS.profileImage);
      if (upload.contentType === undefined || !upload.contentType.startsWith('image/')) {
        throw invalidArgument(operation, `image ${upload.fileName} is not a PNG, JPEG or GIF; pass contentType if it is`);
      }
      const contentType = upload.contentType;
      return transport.send(
        {
          operation,
          method: 'POST',
          path,
          cost: UPLOAD_COST,
          raw: () => ({
            body: upload.open(),
            contentType,
            contentLength: upload.size,
            headers: { 'content-disposition': `attachment; filename="${encodeURIComponent(upload.fileName)}"` },
          }),
          signal: options.signal,
        },
        readResultObject(userSchema),
      );
    },
  };
  return api;
}
