import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { WireOf } from './wire/check.js';
import type { ChargeHandle } from '../billing/billed-call.js';
import { errorEnvelopeSchema } from './schemas.js';
import type { OperationSpec } from './operation-spec.js';
import { operationName } from './operation-spec.js';
import type { AppContext } from './context.js';
import { billedCall } from './plugins/billed-scope.js';

/**
 * Routes register from the operation registry: method, path, schemas and billing come from
 * the operation, the route file only says what to do. Types come from the same schemas, so
 * a body field the schema does not declare, or an answer field it does not list, fails to
 * compile instead of being dropped at run time.
 */

export type BodyOf<Op> = Op extends { body: infer S extends JSONSchema }
  ? Op extends { bodyOptional: true }
    ? FromSchema<S> | undefined
    : FromSchema<S>
  : undefined;
export type ParamsOf<Op> = Op extends { params: infer S extends JSONSchema } ? FromSchema<S> : Record<string, never>;
/** The success body of an operation; `undefined` for operations without a JSON body. */
export type ReplyOf<Op> = Op extends { response: { schema: infer S extends JSONSchema } } ? WireOf<S> : undefined;

export type OperationRequest<Op> = FastifyRequest<{ Body: BodyOf<Op>; Params: ParamsOf<Op> }>;

type Answer<Op> = ReplyOf<Op> | FastifyReply;

/** Fastify route options of an operation: method, path under the scope's prefix, schemas, config. */
export function routeOf(scope: FastifyInstance, op: OperationSpec): Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'> {
  if (!op.path.startsWith(scope.prefix)) throw new Error(`${op.operationId} (${op.path}) registered under ${scope.prefix}`);
  const json = op.response.schema !== undefined || op.body !== undefined;
  return {
    method: op.method,
    url: op.path.slice(scope.prefix.length) || '/',
    schema: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.body ? { body: op.body } : {}),
      ...(json
        ? {
            response: {
              ...(op.response.schema ? { [op.response.status]: op.response.schema } : {}),
              '4xx': errorEnvelopeSchema,
              '5xx': errorEnvelopeSchema,
            },
          }
        : {}),
    },
    config: {
      operation: op.operationId,
      ...(op.cost ? { ledgerName: operationName(op), cost: { credits: op.cost.credits, per: op.cost.per } } : {}),
      ...(op.idempotent ? { idempotent: true } : {}),
    },
  };
}

/**
 * An operation that is not billed; `handle` answers it:
 *
 *   operationRoute(scope, OPERATIONS.usage).handle(async (request, reply) => answer)
 */
export function operationRoute<Op extends OperationSpec>(scope: FastifyInstance, op: Op) {
  return {
    handle(
      handle: (request: OperationRequest<Op>, reply: FastifyReply) => Promise<Answer<Op>>,
      extra: Pick<RouteOptions, 'onRequest'> = {},
    ): void {
      scope.route({ ...routeOf(scope, op), ...extra, handler: handle as RouteOptions['handler'] });
    },
  };
}

/**
 * A billed operation in two steps, so the billing order of DESIGN §4 is the route's shape:
 * `prepare` makes every check that costs nothing (400s: bad URL, bad selector), then the
 * billed scope takes a slot and the cost from the route config, `run` does the work, a
 * failure is refunded and the slot released.
 *
 *   billedOperation(scope, ctx, OPERATIONS.read).prepare((request, reply) => input).run(async (input, call) => answer)
 */
// `Op` is bounded loosely: checking a registry entry against OperationSpec here makes tsc's
// inference over the handler's schema types run too deep (TS2589).
export function billedOperation<Op extends { readonly cost: object }>(scope: FastifyInstance, ctx: AppContext, op: Op) {
  return {
    prepare<Input>(prepare: (request: OperationRequest<Op>, reply: FastifyReply) => Input) {
      return {
        run(
          run: (input: Input, call: { request: OperationRequest<Op>; reply: FastifyReply; charge: ChargeHandle }) => Promise<Answer<Op>>,
        ): void {
          const handler = async (request: OperationRequest<Op>, reply: FastifyReply): Promise<Answer<Op>> => {
            const input = prepare(request, reply);
            return billedCall(ctx, request, (charge) => run(input, { request, reply, charge }));
          };
          scope.route({ ...routeOf(scope, op as unknown as OperationSpec), handler: handler as RouteOptions['handler'] });
        },
      };
    },
  };
}
