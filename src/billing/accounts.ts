import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { Account, ApiKeyRecord, LedgerReport, Stores } from '../store/types.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { nextPeriodStart, periodStart, utcPeriod } from './period.js';
import type { CreditPackId, PlanId } from './plans.js';
import { CREDIT_PACKS, PLANS, planOf } from './plans.js';

/** Account administration shared by the admin HTTP API and the CLI. */
export interface AccountAdminDeps {
  stores: Stores;
  now: () => number;
  randomBytes: (n: number) => Buffer;
}

/** Credits and concurrency of one account in the current UTC month (http/wire/accounts.ts names it for the wire). */
export interface UsageReport {
  accountId: string;
  plan: PlanId;
  period: { start: string; end: string };
  planCredits: { limit: number | null; used: number; remaining: number | null };
  boughtCredits: { balance: number };
  concurrency: { limit: number; inFlight: number };
}

/** An account as the operator sees it: its usage and its keys (never the keys themselves). */
export interface AccountDetails {
  accountId: string;
  name: string | null;
  plan: PlanId;
  createdAt: string;
  usage: UsageReport;
  keys: Array<Omit<ApiKeyRecord, 'accountId'>>;
}

/** `pith ledger verify` and GET /admin/v1/ledger/verify: the store's report, and whether it is clean. */
export interface LedgerVerification extends LedgerReport {
  ok: boolean;
}

export function newId(randomBytes: (n: number) => Buffer, prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export async function createAccount(
  deps: AccountAdminDeps,
  input: { plan: PlanId; name?: string | null },
): Promise<{ account: Account; apiKey: string; keyId: string }> {
  const account = await deps.stores.accounts.createAccount({
    id: newId(deps.randomBytes, 'acct'),
    plan: input.plan,
    name: input.name ?? null,
    now: deps.now(),
  });
  const { apiKey, key } = await createKey(deps, account.id, null);
  return { account, apiKey, keyId: key.id };
}

export async function requireAccount(deps: AccountAdminDeps, accountId: string): Promise<Account> {
  const account = await deps.stores.accounts.getAccount(accountId);
  if (!account) throw new ServiceError('NOT_FOUND', `no account ${accountId}`);
  return account;
}

export async function createKey(
  deps: AccountAdminDeps,
  accountId: string,
  name: string | null,
): Promise<{ apiKey: string; key: ApiKeyRecord }> {
  await requireAccount(deps, accountId);
  const apiKey = generateApiKey(deps.randomBytes);
  const key = await deps.stores.accounts.createKey({
    id: newId(deps.randomBytes, 'key'),
    accountId,
    hash: hashApiKey(apiKey),
    prefix: displayPrefix(apiKey),
    name,
    now: deps.now(),
  });
  return { apiKey, key };
}

export async function revokeKey(deps: AccountAdminDeps, accountId: string, keyId: string): Promise<void> {
  await requireAccount(deps, accountId);
  const revoked = await deps.stores.accounts.revokeKey(accountId, keyId, deps.now());
  if (!revoked) throw new ServiceError('NOT_FOUND', `no active key ${keyId} on account ${accountId}`);
}

/**
 * Changes an account's plan. A paid account that still holds bought credits cannot move to
 * Free: Free cannot spend them, so they would be stranded (decision: refuse, and let the
 * operator settle the balance first; see docs/billing.md).
 */
export async function changePlan(deps: AccountAdminDeps, accountId: string, plan: PlanId): Promise<Account> {
  const current = await requireAccount(deps, accountId);
  if (planOf(current).paid && !PLANS[plan].paid) {
    const { boughtBalance } = await deps.stores.ledger.getUsage(accountId, utcPeriod(deps.now()));
    if (boughtBalance > 0) {
      throw new ServiceError(
        'PLAN_NOT_ELIGIBLE',
        `the account holds ${boughtBalance} bought credits, which the ${PLANS[plan].label} plan cannot spend; use them up or settle them before downgrading`,
      );
    }
  }
  const account = await deps.stores.accounts.setPlan(accountId, plan);
  if (!account) throw new ServiceError('NOT_FOUND', `no account ${accountId}`);
  return account;
}

/** Adds a credit pack without a payment id; answers the new balance. */
export async function addCreditPack(deps: AccountAdminDeps, accountId: string, pack: CreditPackId): Promise<number> {
  return (await buyCreditPack(deps, accountId, pack)).balance;
}

/** A payment id names one purchase: a retried payment webhook must not credit its pack twice. */
const PAYMENT_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

/**
 * Adds a credit pack's credits to the bought balance; paid plans only. With `paymentId`
 * the purchase is idempotent: the same id again adds nothing and answers the current
 * balance with `duplicate: true`.
 */
export async function buyCreditPack(
  deps: AccountAdminDeps,
  accountId: string,
  pack: CreditPackId,
  paymentId?: string,
): Promise<{ balance: number; duplicate: boolean }> {
  if (paymentId !== undefined && !PAYMENT_ID_PATTERN.test(paymentId)) {
    throw new ServiceError('BAD_REQUEST', 'payment_id must be 1 to 200 visible ASCII characters');
  }
  const account = await requireAccount(deps, accountId);
  if (!planOf(account).paid) {
    throw new ServiceError('PLAN_NOT_ELIGIBLE', `the ${planOf(account).label} plan cannot buy credit packs`);
  }
  const result = await deps.stores.ledger.addBoughtCredits({
    accountId,
    amount: CREDIT_PACKS[pack].credits,
    reason: `pack:${pack}`,
    // the payment's own id, hashed to a fixed-size ledger id that cannot collide with minted ids
    entryId:
      paymentId === undefined
        ? newId(deps.randomBytes, 'buy')
        : `pay_${createHash('sha256').update(`${accountId}\u0000${paymentId}`).digest('hex').slice(0, 40)}`,
    now: deps.now(),
  });
  return { balance: result.balance, duplicate: !result.applied };
}

export async function usageReport(deps: Pick<AccountAdminDeps, 'stores' | 'now'>, account: Account): Promise<UsageReport> {
  const now = deps.now();
  const plan = planOf(account);
  const [usage, inFlight] = await Promise.all([
    deps.stores.ledger.getUsage(account.id, utcPeriod(now)),
    deps.stores.slots.inFlight(account.id, now),
  ]);
  return {
    accountId: account.id,
    plan: planOf(account).id,
    period: { start: periodStart(now).toISOString(), end: nextPeriodStart(now).toISOString() },
    planCredits: {
      limit: plan.monthlyCredits,
      used: usage.planUsed,
      remaining: plan.monthlyCredits === null ? null : Math.max(0, plan.monthlyCredits - usage.planUsed),
    },
    boughtCredits: { balance: usage.boughtBalance },
    concurrency: { limit: plan.concurrency, inFlight },
  };
}

export async function describeAccount(deps: AccountAdminDeps, accountId: string): Promise<AccountDetails> {
  const account = await requireAccount(deps, accountId);
  const [usage, keys] = await Promise.all([usageReport(deps, account), deps.stores.accounts.listKeys(accountId)]);
  return {
    accountId: account.id,
    name: account.name,
    plan: planOf(account).id,
    createdAt: account.createdAt,
    usage,
    keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, name: k.name, createdAt: k.createdAt, revokedAt: k.revokedAt })),
  };
}

/** Recomputes every counter from the ledger rows (`pith ledger verify`, GET /admin/v1/ledger/verify). */
export async function verifyLedger(deps: Pick<AccountAdminDeps, 'stores'>): Promise<LedgerVerification> {
  const report = await deps.stores.ledger.verify();
  return { ok: report.differences.length === 0, ...report };
}
