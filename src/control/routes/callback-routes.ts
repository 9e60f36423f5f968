import type { FastifyInstance } from 'fastify';
import { CALLBACK_CHALLENGE_RESPONSE_HEADER } from '../../contract/index.js';
import { CALLBACK_PATH, type CallbackIntake } from '../../events/take-callback.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';


/** A callback body is a batch of skinny events: small. */
const CALLBACK_BODY_LIMIT = 1024 * 1024;

const STATUS_OF_REFUSAL = { malformed: 400, 'unknown-webhook': 403, signature: 401, stale: 400, replayed: 409, 'not-subscribed': 404 } as const;

/**
 * The callback endpoint: public (the service sends no bearer token; the shared secret's signature is the
 * authentication), its raw body kept as text because the signature covers those bytes. A thin adapter over the intake.
 */
export function registerCallbackRoutes(app: FastifyInstance, intake: CallbackIntake): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(CALLBACK_PATH, { config: { auth: 'public' }, bodyLimit: CALLBACK_BODY_LIMIT }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const answer = await intake.take(raw, request.headers);
      if (answer.kind === 'challenge') {
        return reply.header(CALLBACK_CHALLENGE_RESPONSE_HEADER, answer.challenge).send({ smartsheetHookResponse: answer.challenge });
      }
      if (answer.kind === 'taken') return reply.send({ taken: true, events: answer.events });
      request.log.warn({ refusal: answer.refusal }, `callback refused: ${answer.message}`);
      throw new ControlError(STATUS_OF_REFUSAL[answer.refusal], answer.refusal === 'signature' ? CONTROL_ERROR_CODES.unauthorized : CONTROL_ERROR_CODES.badRequest, `callback refused (${answer.refusal}): ${answer.message}`, {
        hint: 'Nothing was changed. See docs/events.md#the-callback-endpoint.',
      });
    });
  });
}
