import type { Billing, PithClient } from '@pith/sdk';
import type { BackendAnswer, PithBackend, PithOperation, ToolBilling } from './tools.js';

function toolBilling(b: Billing): ToolBilling {
  return {
    cache: b.cache,
    plan_remaining: b.planRemaining,
    plan_reset_at: b.planResetAt,
    billed: b.billed,
    credits_remaining: b.creditsRemaining,
    concurrent_remaining: b.concurrentRemaining,
    request_id: b.requestId,
  };
}

/** The stdio transport's backend: every tool call is one @pith/sdk call to a pith server. */
export function createSdkBackend(client: PithClient): PithBackend {
  return {
    async call(op: PithOperation, body): Promise<BackendAnswer> {
      const b = (body ?? {}) as never;
      const result = await (async () => {
        switch (op) {
          case 'read':
            return client.read(b);
          case 'read-and-score':
            return client.readAndScore(b);
          case 'score':
            return client.score(b);
          case 'extract':
            return client.extract(b);
          case 'map':
            return client.map(b);
          case 'batch':
            return client.batch(b);
          case 'usage':
            return client.usage();
        }
      })();
      const { billing, ...data } = result;
      return { data, billing: toolBilling(billing) };
    },
  };
}
