import { ServiceError } from '../errors.js';
import type { Account, ApiKeyRecord, PlanId, Stores } from '../store/types.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys.js';
import { nextPeriodStart, periodStart, utcPeriod } from './period.js';
import type { CreditPackId } from './plans.js';
import { CREDIT_PACKS, PLANS } from './plans.js';

/** Account administration shared by the admin HTTP API and the CLI. */
export interface AccountAdminDeps {
  stores: Stores;
  now: () => number;
  randomBytes: (n: number) => Buffer;
}

export interface UsageReport {
  account_id: string;
  plan: PlanId;
  period: { start: string; end: string };
  plan_credits: { limit: number | null; used: number; remaining: number | null };
  bought_credits: { balance: number };
  concurrency: { limit: number; in_flight: number };
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

export async function changePlan(deps: AccountAdminDeps, accountId: string, plan: PlanId): Promise<Account> {
  await requireAccount(deps, accountId);
  const account = await deps.stores.accounts.setPlan(accountId, plan);
  if (!account) throw new ServiceError('NOT_FOUND', `no account ${accountId}`);
  return account;
}

/** Adds a credit pack's credits to the bought balance; paid plans only. */
export async function addCreditPack(deps: AccountAdminDeps, accountId: string, pack: CreditPackId): Promise<number> {
  const account = await requireAccount(deps, accountId);
  if (!PLANS[account.plan].paid) {
    throw new ServiceError('PLAN_NOT_ELIGIBLE', `the ${PLANS[account.plan].label} plan cannot buy credit packs`);
  }
  return deps.stores.ledger.addBoughtCredits({
    accountId,
    amount: CREDIT_PACKS[pack].credits,
    reason: `pack:${pack}`,
    entryId: newId(deps.randomBytes, 'buy'),
    now: deps.now(),
  });
}

export async function usageReport(deps: Pick<AccountAdminDeps, 'stores' | 'now'>, account: Account): Promise<UsageReport> {
  const now = deps.now();
  const plan = PLANS[account.plan];
  const [usage, inFlight] = await Promise.all([
    deps.stores.ledger.getUsage(account.id, utcPeriod(now)),
    deps.stores.slots.inFlight(account.id, now),
  ]);
  return {
    account_id: account.id,
    plan: account.plan,
    period: { start: periodStart(now).toISOString(), end: nextPeriodStart(now).toISOString() },
    plan_credits: {
      limit: plan.monthlyCredits,
      used: usage.planUsed,
      remaining: plan.monthlyCredits === null ? null : Math.max(0, plan.monthlyCredits - usage.planUsed),
    },
    bought_credits: { balance: usage.boughtBalance },
    concurrency: { limit: plan.concurrency, in_flight: inFlight },
  };
}

export async function describeAccount(deps: AccountAdminDeps, accountId: string) {
  const account = await requireAccount(deps, accountId);
  const [usage, keys] = await Promise.all([usageReport(deps, account), deps.stores.accounts.listKeys(accountId)]);
  return {
    account_id: account.id,
    name: account.name,
    plan: account.plan,
    created_at: account.createdAt,
    usage,
    keys: keys.map((k) => ({ key_id: k.id, prefix: k.prefix, name: k.name, created_at: k.createdAt, revoked_at: k.revokedAt })),
  };
}
