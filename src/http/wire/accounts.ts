import type { AccountDetails, LedgerVerification, UsageReport } from '../../billing/accounts.js';
import type { Account, ApiKeyRecord } from '../../store/types.js';
import type { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import type { usageReportSchema } from '../schemas.js';
import type { WireOf } from './check.js';

/**
 * Accounts on the wire: GET /v1/usage and the operator API (/admin/v1), and what `pith
 * accounts show` and `pith ledger verify` print. billing/accounts.ts returns domain objects;
 * the wire's names are written here, each answer typed by its response schema.
 */

type WireUsage = WireOf<typeof usageReportSchema>;

/** Credits and concurrency of one account (GET /v1/usage; `usage` of an admin account). */
export function usageOnWire(usage: UsageReport): WireUsage {
  return {
    account_id: usage.accountId,
    plan: usage.plan,
    period: { start: usage.period.start, end: usage.period.end },
    plan_credits: { limit: usage.planCredits.limit, used: usage.planCredits.used, remaining: usage.planCredits.remaining },
    bought_credits: { balance: usage.boughtCredits.balance },
    concurrency: { limit: usage.concurrency.limit, in_flight: usage.concurrency.inFlight },
  };
}

export function usageResponseBody(usage: UsageReport): ReplyOf<typeof OPERATIONS.usage> {
  return { status: 'success', ...usageOnWire(usage) };
}

type AccountAnswer = ReplyOf<typeof OPERATIONS.adminGetAccount>;

/** An account for the operator, without `status` (`pith accounts show` prints this). */
export function accountOnWire(account: AccountDetails): Omit<AccountAnswer, 'status'> {
  return {
    account_id: account.accountId,
    name: account.name,
    plan: account.plan,
    created_at: account.createdAt,
    usage: usageOnWire(account.usage),
    keys: account.keys.map((k) => ({ key_id: k.id, prefix: k.prefix, name: k.name, created_at: k.createdAt, revoked_at: k.revokedAt })),
  };
}

export function accountResponseBody(account: AccountDetails): AccountAnswer {
  return { status: 'success', ...accountOnWire(account) };
}

/** POST /admin/v1/accounts: the account and its first key (the only time the key is shown). */
export function accountCreatedBody(created: {
  account: Account;
  apiKey: string;
  keyId: string;
}): ReplyOf<typeof OPERATIONS.adminCreateAccount> {
  return { status: 'success', account_id: created.account.id, api_key: created.apiKey, key_id: created.keyId, plan: created.account.plan };
}

/** POST /admin/v1/accounts/:id/keys: the new key (the only time it is shown). */
export function keyCreatedBody(created: { apiKey: string; key: ApiKeyRecord }): ReplyOf<typeof OPERATIONS.adminCreateKey> {
  return { status: 'success', key_id: created.key.id, api_key: created.apiKey, prefix: created.key.prefix };
}

/** POST /admin/v1/accounts/:id/credits: the new bought balance; `duplicate` when the payment was already credited. */
export function creditPackBody(bought: { balance: number; duplicate: boolean }): ReplyOf<typeof OPERATIONS.adminAddCreditPack> {
  return { status: 'success', bought_credits: { balance: bought.balance }, ...(bought.duplicate ? { duplicate: true } : {}) };
}

type LedgerAnswer = ReplyOf<typeof OPERATIONS.adminVerifyLedger>;

/** The ledger check, without `status` (`pith ledger verify` prints this). */
export function ledgerReportOnWire(report: LedgerVerification): Omit<LedgerAnswer, 'status'> {
  return {
    ok: report.ok,
    accounts_checked: report.accounts,
    differences: report.differences.map((d) => ({
      account_id: d.accountId,
      counter: d.counter,
      stored: d.stored,
      from_ledger: d.fromLedger,
    })),
    open_charges: report.openCharges.map((c) => ({
      charge_id: c.chargeId,
      account_id: c.accountId,
      amount: c.amount,
      refunded: c.refunded,
      operation: c.operation,
      created_at: c.createdAt,
    })),
  };
}

export function ledgerResponseBody(report: LedgerVerification): LedgerAnswer {
  return { status: 'success', ...ledgerReportOnWire(report) };
}
