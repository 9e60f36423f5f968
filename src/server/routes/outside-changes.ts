import { z } from 'zod';
import { SEAT_TYPES } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { leaveOrganization } from '../rules/leave-organization.js';
import { noteProvisionalSeat } from '../rules/provisional-expiry.js';
import { assignMemberSeats, describeMoves, setSeat, takeMemberSeats } from '../rules/seat-lifecycle.js';
import { runAs, type ChangeSource } from '../sim/change-source.js';
import type { Mutation } from '../sim/mutation-log.js';
import type { ServerContext } from '../server-context.js';
import type { PlanSeat, UserRecord } from '../state/records.js';
import { findUserByEmail } from '../state/server-state.js';

/**
 * `POST /_sim/outside-change` (docs/reference-server.md#changes-made-elsewhere): a change made outside the API, as a
 * System Admin makes it in the Admin Center or an identity provider's sync (Okta, Entra ID) makes it. It changes the
 * user as the service would and is logged and sent to webhooks like any other change, with the admin who made it as
 * the actor (an identity provider names nobody unless `by` is given). The API's eligibility rules do not apply: the
 * Admin Center and the identity provider are how externally managed users are changed.
 */
const bodySchema = z.strictObject({
  via: z.enum(['admin-center', 'identity-provider']).default('admin-center'),
  /** The admin making the change, by e-mail. Default: an Admin Center change by a System Admin other than the token's. */
  by: z.string().min(3).optional(),
  /** The user changed, by e-mail or id. */
  user: z.union([z.string().min(3), z.number().int()]),
  change: z.enum(['deactivate', 'reactivate', 'remove', 'seat']),
  /** For `seat`: the seat now held (VIEWER and CONTRIBUTOR are one seat). */
  seatType: z.enum(SEAT_TYPES).optional(),
  /** For `seat`: which plan; default the user's first. */
  planId: z.number().int().optional(),
  /** For a PROVISIONAL_MEMBER seat: the review period in days. Default the server's. */
  provisionalDays: z.number().positive().optional(),
});

export interface OutsideChangeResult {
  changed: boolean;
  mutation?: Mutation;
}

export function applyOutsideChange(server: ServerContext, input: unknown): OutsideChangeResult {
  const parsed = bodySchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid outside change: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
  }
  const body = parsed.data;
  const user = userOf(server, body.user);
  const source: ChangeSource = { via: body.via, ...actorOf(server, body.via, body.by) };
  return runAs(source, () => apply(server, user, body));
}

function userOf(server: ServerContext, ref: string | number): UserRecord {
  const user = typeof ref === 'number' ? server.state.users.get(ref) : findUserByEmail(server.state, ref);
  if (user === undefined || !user.inOrg) throw ApiError.notFound(`No user ${ref} in the organization.`);
  return user;
}

function actorOf(server: ServerContext, via: 'admin-center' | 'identity-provider', by: string | undefined): { actorId?: number } {
  if (by !== undefined) {
    const admin = findUserByEmail(server.state, by);
    if (admin === undefined || !admin.admin || !admin.inOrg) throw ApiError.badRequest(CODES.invalidAttributeValue, `${by} is not a System Admin of the organization.`);
    return { actorId: admin.id };
  }
  if (via === 'identity-provider') return {};
  const tokenUser = server.state.tokens.get(server.settings.adminToken)?.userId;
  const admins = [...server.state.users.values()].filter((u) => u.admin && u.inOrg && u.status === 'ACTIVE');
  const other = admins.find((u) => u.id !== tokenUser) ?? admins[0];
  return other === undefined ? {} : { actorId: other.id };
}

function apply(server: ServerContext, user: UserRecord, body: z.infer<typeof bodySchema>): OutsideChangeResult {
  const { clock, mutations, events } = server;
  const now = clock.now();
  const via = body.via === 'admin-center' ? 'in the Admin Center' : 'by the identity provider';
  const plans = user.seats.map((s) => s.planId);
  if (body.change === 'deactivate' || body.change === 'reactivate') {
    const deactivating = body.change === 'deactivate';
    if ((user.status === 'DEACTIVATED') === deactivating) return { changed: false };
    user.status = deactivating ? 'DEACTIVATED' : 'ACTIVE';
    user.deactivatedAt = deactivating ? now : null;
    const moves = deactivating ? takeMemberSeats(user, now) : assignMemberSeats(user, now);
    const mutation = mutations.record({ operation: `${body.change}User`, resourceType: 'user', resourceId: user.id, userId: user.id, summary: `${body.change}d ${user.email} ${via}${describeMoves(moves)}` });
    events.user(deactivating ? 'deactivated' : 'reactivated', user, plans);
    events.seatChanged(user, moves.map((move) => move.planId));
    return { changed: true, mutation };
  }
  if (body.change === 'remove') {
    leaveOrganization(server.state, user, events);
    return { changed: true, mutation: mutations.record({ operation: 'removeUser', resourceType: 'user', resourceId: user.id, userId: user.id, summary: `removed ${user.email} ${via}` }) };
  }
  const seat = seatOf(user, body.planId);
  const wanted = body.seatType === undefined ? undefined : body.seatType === 'CONTRIBUTOR' ? 'VIEWER' : body.seatType;
  if (wanted === undefined) throw ApiError.badRequest(CODES.requiredAttributeMissing, 'A seat change needs seatType.');
  if (seat.seatType === wanted) return { changed: false };
  const before = seat.seatType;
  const until = wanted === 'PROVISIONAL_MEMBER' ? now + (body.provisionalDays === undefined ? server.settings.provisionalReviewMs : body.provisionalDays * 86_400_000) : null;
  setSeat(seat, wanted, now, until);
  if (until !== null) noteProvisionalSeat(server.state, until);
  const mutation = mutations.record({ operation: 'changeSeat', resourceType: 'user', resourceId: user.id, userId: user.id, summary: `${user.email} in plan ${seat.planId}: ${before} → ${wanted} ${via}` });
  events.seatChanged(user, [seat.planId]);
  return { changed: true, mutation };
}

function seatOf(user: UserRecord, planId: number | undefined): PlanSeat {
  const seat = planId === undefined ? user.seats[0] : user.seats.find((s) => s.planId === planId);
  if (seat === undefined) throw ApiError.notFound(`${user.email} holds no seat${planId === undefined ? '' : ` in plan ${planId}`}.`);
  return seat;
}
