import type { FastifyRequest } from 'fastify';
import { emailDomain } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { pathId } from '../http/query.js';
import { confirmAddressesOnDomain, holderOf } from '../rules/alternate-email-rules.js';
import type { ServerContext } from '../server-context.js';
import { alternateEmailView } from '../state/user-views.js';

/** A `/_sim` control over what the service's users and admins do outside the API. */
export interface SimDomainControl {
  method: 'POST' | 'DELETE';
  path: string;
  handle(request: FastifyRequest, server: ServerContext): unknown;
}

function stringField(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body !== null && typeof body === 'object' ? body[name] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw ApiError.badRequest(CODES.requiredAttributeMissing, `Required object attribute(s) are missing: ${name}`);
  return value.trim();
}

function requirePlan(request: FastifyRequest, server: ServerContext) {
  const plan = server.state.plans.get(pathId((request.params as { planId: string }).planId));
  if (plan === undefined) throw ApiError.notFound('Plan not found.');
  return plan;
}

/**
 * What happens outside the API that migrations wait for (docs/reference-server.md#sim-controls): the owner of an
 * alternate address clicks its confirmation link, and an admin validates (or drops) a domain of a plan in Admin
 * Center. Each is a state change in the mutation log, under its own operation name.
 */
export const SIM_DOMAIN_CONTROLS: readonly SimDomainControl[] = [
  {
    method: 'POST',
    path: '/alternateemails/confirm',
    handle(request, server) {
      const email = stringField(request, 'email');
      const holder = holderOf(server.state, email);
      const alternate = holder?.as === 'alternate' ? holder.user.alternateEmails.find((a) => a.email.toLowerCase() === email.toLowerCase()) : undefined;
      if (holder === undefined || alternate === undefined) throw ApiError.notFound(`${email} is nobody's alternate address.`);
      if (!alternate.confirmed) {
        alternate.confirmed = true;
        server.mutations.record({ operation: 'confirmAlternateEmail', resourceType: 'alternateEmail', resourceId: alternate.id, userId: holder.user.id, summary: `${holder.user.email} confirmed ${alternate.email}` });
      }
      return { userId: holder.user.id, ...alternateEmailView(alternate) };
    },
  },
  {
    method: 'POST',
    path: '/plans/:planId/domains',
    handle(request, server) {
      const plan = requirePlan(request, server);
      const domain = emailDomain(`@${stringField(request, 'domain')}`);
      if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid domain: ${domain}`);
      if (!plan.domains.includes(domain)) {
        plan.domains.push(domain);
        const confirmed = confirmAddressesOnDomain(server.state, plan.id, domain);
        server.mutations.record({ operation: 'validateDomain', resourceType: 'plan', resourceId: plan.id, summary: `validated ${domain} for plan ${plan.id}; ${confirmed.length} alternate addresses on it count as confirmed` });
      }
      return { planId: plan.id, domains: [...plan.domains] };
    },
  },
  {
    method: 'DELETE',
    path: '/plans/:planId/domains/:domain',
    handle(request, server) {
      const plan = requirePlan(request, server);
      const domain = (request.params as { domain: string }).domain.toLowerCase();
      if (plan.domains.includes(domain)) {
        plan.domains = plan.domains.filter((each) => each !== domain);
        server.mutations.record({ operation: 'unvalidateDomain', resourceType: 'plan', resourceId: plan.id, summary: `${domain} is no longer validated for plan ${plan.id}` });
      }
      return { planId: plan.id, domains: [...plan.domains] };
    },
  },
];
