import type { Generated } from 'kysely';

/** Kysely table shapes, column for column; timestamps are bigint Unix milliseconds, JSON columns are text. */

/** Row of `users`. */
export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'user';
  /** `scrypt$<salt>$<hash>`, or null for social-only accounts */
  password_hash: string | null;
  status: 'active' | 'disabled';
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `model_groups`. */
export interface ModelGroupsTable {
  id: string;
  name: string;
  description: string;
  /** JSON array of model ids */
  models: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `channels`. */
export interface ChannelsTable {
  id: string;
  name: string;
  protocol: string;
  preset: string | null;
  base_url: string;
  encrypted_secret: string;
  /** JSON array of public model ids */
  models: string;
  /** JSON object: public model id -> upstream model id */
  model_mapping: string;
  /** JSON object of protocol-specific settings (see ChannelRecord.settings) */
  settings: string;
  priority: number;
  weight: number;
  status: 'enabled' | 'disabled';
  /** Unix milliseconds */
  created_at: number;
  /** Unix milliseconds */
  updated_at: number;
}

/** Row of `api_keys`. */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  group_id: string;
  name: string;
  /** lowercase hex SHA-256 of the full key */
  key_hash: string;
  key_prefix: string;
  status: 'active' | 'disabled';
  /** Unix milliseconds, or null for never */
  expires_at: number | null;
  /** Unix milliseconds */
  created_at: number;
}

/** The single row (id 1) whose counter goes up on every write that affects routing. */
export interface RoutingRevisionTable {
  id: number;
  revision: number;
}

/** Billing columns of `users` (migration 0003); amounts in micro-units, limits null for the configured default. */
export interface UserBillingColumns {
  /** micro-units; always equals the sum of the user's ledger entries */
  balance: Generated<number>;
  /** goes up by one with every change of `balance`, so copies elsewhere (Redis) can tell which value is newer */
  balance_sequence: Generated<number>;
  /** micro-units the user owes (migration 0006): always ≥ 0 and equal to the sum of the user's ledger `debt_change` */
  debt: Generated<number>;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  max_concurrent_requests: number | null;
}

/** Billing columns of `api_keys` (migration 0003). */
export interface ApiKeyBillingColumns {
  /** micro-units the key may spend in total, or null for no cap */
  spending_cap: number | null;
  /** micro-units settled against the key so far */
  spent: Generated<number>;
  /** JSON array of IP addresses or CIDR ranges; empty means any */
  allowed_ips: Generated<string>;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  max_concurrent_requests: number | null;
}

/** Billing columns of `model_groups` (migration 0003). */
export interface ModelGroupBillingColumns {
  /** price multiplier in millionths: 1_000_000 is ×1, 1_500_000 is ×1.5 */
  price_ratio_millionths: Generated<number>;
}

/** Row of `ledger_entries`: one append-only change of a balance. */
export interface LedgerEntriesTable {
  id: string;
  user_id: string;
  /** top-up, bonus, hold, settlement, refund, adjustment or redemption */
  kind: string;
  /** signed micro-units: credits positive, charges negative */
  amount: number;
  /** signed micro-units added to the user's debt (migration 0006): an uncovered charge positive, a repayment negative */
  debt_change: Generated<number>;
  description: string;
  /** request id, payment event id or admin who made the change */
  reference: string | null;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `model_prices`: an operator's price for one model; models without a row use the built-in defaults. */
export interface ModelPricesTable {
  model_id: string;
  /** micro-units per million uncached input tokens */
  input_per_million: number;
  /** micro-units per million input tokens read from the vendor's cache */
  cached_input_per_million: number;
  /** micro-units per million input tokens written to the vendor's cache */
  cache_write_per_million: number;
  /** micro-units per million input tokens written to the cache with a 1-hour TTL; null = twice the input price (migration 0019) */
  cache_write_one_hour_per_million: number | null;
  /** micro-units per million output tokens */
  output_per_million: number;
  /** JSON object: `<size>:<quality>`, `<size>` or `default` -> micro-units per image */
  image_prices: string;
  /** micro-units per minute of audio */
  audio_per_minute: number;
  /** micro-units per second of video */
  video_per_second: number;
  /** Unix milliseconds */
  updated_at: number;
}

/** Row of `usage_logs`: one /v1 request. */
export interface UsageLogsTable {
  id: string;
  /** Unix milliseconds when the request arrived */
  created_at: number;
  user_id: string;
  api_key_id: string;
  model: string;
  channel_id: string | null;
  endpoint: string;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** input tokens written to the vendor's prompt cache (part of prompt_tokens) */
  cache_write_tokens: number;
  /** micro-units charged */
  cost: number;
  /** HTTP status the client received */
  status: number;
  error_code: string | null;
  /** milliseconds from arrival to the end of the response */
  latency_ms: number;
  /** milliseconds from arrival to the first byte, or null */
  first_token_ms: number | null;
  /** 1 for streamed answers, else 0 */
  streamed: number;
  client_ip: string;
}

/** Row of `usage_daily_rollups`: sums per UTC day, user, key and model. */
export interface UsageDailyRollupsTable {
  /** UTC day, `YYYY-MM-DD` */
  day: string;
  user_id: string;
  api_key_id: string;
  model: string;
  request_count: number;
  error_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** micro-units */
  cost: number;
}

/** Row of `audit_log`: one administrator action, append-only. */
export interface AuditLogTable {
  id: string;
  /** Unix milliseconds */
  created_at: number;
  /** the acting user, or null for an admin token or the CLI */
  actor_user_id: string | null;
  /** who acted, for display: an email, `admin token <name>` or `cli <OS user>` */
  actor_label: string;
  /** `user` (signed in), `admin_token`, `cli` or `webhook` */
  actor_kind: string;
  /** the admin token's id, the CLI's OS user name, or null for a signed-in user (see actor_user_id) */
  actor_id: string | null;
  /** dotted verb, e.g. `user.credit`, `user.groups.set`, `channel.update`, `order.recheck` */
  action: string;
  /** kind of record acted on, e.g. `user`, `channel`, `order` */
  target_type: string;
  target_id: string | null;
  /** JSON object: what changed (never a secret) */
  details: string;
}

/** Row of `console_sessions`: a signed-in console session; only the token's SHA-256 is stored. */
export interface ConsoleSessionsTable {
  token_hash: string;
  user_id: string;
  /** Unix milliseconds */
  created_at: number;
  /** Unix milliseconds */
  expires_at: number;
}

/** Row of `admin_tokens`: a token from `gateway admin token`; only its SHA-256 is stored. */
export interface AdminTokensTable {
  token_hash: string;
  name: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Columns of `console_sessions` added by migration 0009 (always set on rows written since). */
export interface ConsoleSessionSignInColumns {
  /** `ses_...`: addresses the session in the API without its token hash */
  id: string;
  /** Unix milliseconds of the last authenticated request (updated at most once a minute) */
  last_seen_at: number;
  /** the browser's User-Agent at sign-in, cut to 512 characters */
  user_agent: string | null;
  /** the client address at sign-in */
  client_ip: string | null;
}

/** Columns of `admin_tokens` added by migration 0009. */
export interface AdminTokenExpiryColumns {
  /** `adm_...`: addresses the token in the API and the CLI */
  id: string;
  /** Unix milliseconds after which the token is refused */
  expires_at: number;
}

/** Row of `identities` (migration 0009): a way in from a sign-in provider, linked to one user. */
export interface IdentitiesTable {
  id: string;
  user_id: string;
  /** `github` or `oidc` */
  provider: string;
  /** GitHub's numeric user id, or the OIDC issuer and `sub` joined by a space */
  subject: string;
  /** the email the provider reported at the last sign-in, verified or not */
  email: string | null;
  /** the provider's login or name, for the identity list */
  display_name: string;
  /** Unix milliseconds */
  created_at: number;
  /** Unix milliseconds of the last sign-in through it */
  last_used_at: number;
}

/** The single row (id 1) whose counter goes up on every write that affects balances, prices or limits. */
export interface BillingRevisionTable {
  id: number;
  revision: number;
}

/** Every table the gateway's Kysely instance knows. */
/** Row of `model_catalog_entries`: an admin's change to one model of the catalog. */
export interface ModelCatalogEntriesTable {
  model_id: string;
  /** JSON object of the catalog fields it sets (see applyModelCatalogEntries) */
  entry: string;
  /** Unix milliseconds */
  updated_at: number;
}

/** Access columns of `api_keys` (migration 0005). */
export interface ApiKeyAccessColumns {
  /** `owner` or `admin` while the key is disabled, else null (see ApiKeyRecord.disabledBy) */
  disabled_by: Generated<'owner' | 'admin' | null>;
}

/** Row of `user_groups` (migration 0005): a user's grant of one model group. */
export interface UserGroupsTable {
  user_id: string;
  group_id: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Columns of `usage_logs` added by migration 0012. */
export interface UsageLogRequestIdColumns {
  /** the request's `x-request-id` (Fastify's request id), or null for rows written before migration 0012 */
  request_id: string | null;
}

/** Columns of `usage_logs` added by migration 0013: what a settled request was priced with; null before it and for refused requests. */
export interface UsageLogPricingColumns {
  /** micro-units per million uncached input tokens, before the ratio */
  price_input_per_million: number | null;
  price_cached_input_per_million: number | null;
  price_cache_write_per_million: number | null;
  price_output_per_million: number | null;
  /** the ratio applied (group × premium), millionths */
  price_ratio_millionths: number | null;
  /** micro-units of images, before the ratio */
  image_cost: number | null;
  audio_milliseconds: number | null;
  /** micro-units per minute of audio, before the ratio */
  price_audio_per_minute: number | null;
  /** micro-units of video, before the ratio */
  video_cost: number | null;
  /** of cache_write_tokens, those written with a 1-hour TTL (migration 0019; null before it) */
  cache_write_one_hour_tokens: number | null;
  /** micro-units per million 1-hour cache writes, before the ratio (migration 0019) */
  price_cache_write_one_hour_per_million: number | null;
}

/** Row of `usage_hourly_rollups` (migration 0012): sums per UTC hour, user, key and model. */
export interface UsageHourlyRollupsTable {
  /** Unix milliseconds of the start of the UTC hour */
  hour: number;
  user_id: string;
  api_key_id: string;
  model: string;
  request_count: number;
  error_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** micro-units */
  cost: number;
}

/** Row of `refused_request_counts` (migration 0017): requests refused before any upstream call, per UTC minute, key, model, status and error code. */
export interface RefusedRequestCountsTable {
  /** Unix milliseconds of the start of the UTC minute */
  minute: number;
  user_id: string;
  api_key_id: string;
  model: string;
  /** HTTP status the client received */
  status: number;
  error_code: string;
  count: number;
}

/** Columns of `api_keys` added by migration 0012. */
export interface ApiKeyLastUsedColumns {
  /** Unix milliseconds of the newest request written for the key (set by the settlement batch writer), or null */
  last_used_at: Generated<number | null>;
}

/** Columns of `api_keys` added by migration 0022. */
export interface ApiKeyAdminLimitColumns {
  /** JSON object of the limits an administrator set on the key, with their values (see ApiKeyAdminLimits) */
  admin_limits: Generated<string>;
}

export interface DatabaseSchema {
  users: UsersTable & UserBillingColumns;
  model_groups: ModelGroupsTable & ModelGroupBillingColumns;
  channels: ChannelsTable;
  api_keys: ApiKeysTable & ApiKeyBillingColumns & ApiKeyAccessColumns & ApiKeyLastUsedColumns & ApiKeyAdminLimitColumns;
  routing_revision: RoutingRevisionTable;
  ledger_entries: LedgerEntriesTable;
  model_prices: ModelPricesTable;
  usage_logs: UsageLogsTable & UsageLogRequestIdColumns & UsageLogPricingColumns;
  usage_daily_rollups: UsageDailyRollupsTable;
  console_sessions: ConsoleSessionsTable & ConsoleSessionSignInColumns;
  admin_tokens: AdminTokensTable & AdminTokenExpiryColumns;
  billing_revision: BillingRevisionTable;
  model_catalog_entries: ModelCatalogEntriesTable;
  user_groups: UserGroupsTable;
  audit_log: AuditLogTable;
  redemption_codes: RedemptionCodesTable;
  identities: IdentitiesTable;
  usage_hourly_rollups: UsageHourlyRollupsTable;
  refused_request_counts: RefusedRequestCountsTable;
  topup_orders: TopupOrdersTable;
  topup_disputes: TopupDisputesTable;
  payment_webhook_deliveries: PaymentWebhookDeliveriesTable;
  stored_responses: StoredResponsesTable;
  video_tasks: VideoTasksTable;
  message_thread_turns: MessageThreadTurnsTable;
  secret_key_check: SecretKeyCheckTable;
  two_factor_settings: TwoFactorSettingsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  request_bodies: RequestBodiesTable;
  key_changes: KeyChangesTable;
}

/** Row of `secret_key_check` (migration 0021): the check value of the secret key the database's secrets are sealed with. */
export interface SecretKeyCheckTable {
  /** always 1: one row */
  id: number;
  /** hex HMAC-SHA256 of a constant under the secret key */
  check_value: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `payment_webhook_deliveries` (migration 0014): one payment provider message received, without its payload. */
export interface PaymentWebhookDeliveriesTable {
  id: string;
  /** `stripe` or `alipay` */
  method: string;
  /** Unix milliseconds */
  received_at: number;
  /** 1 when the signature verified, 0 when it did not */
  verified: number;
  /** what applying it did (`credited`, `unchanged`, `ignored`, ...), or `rejected` when it did not verify */
  outcome: string;
  /** the gateway order it named, when it named one */
  order_id: string | null;
}

/** Row of `topup_orders`: one payment attempt; money columns are integers (minor units paid, micro-units credited). */
export interface TopupOrdersTable {
  id: string;
  user_id: string;
  /** `stripe` or `alipay` */
  method: string;
  /** `pending`, `paid`, `failed`, `expired`, `partially-refunded`, `refunded` or `disputed` */
  status: string;
  /** what the payer pays, in the currency's minor unit (cents, fen) */
  amount_paid_minor: number;
  /** lower-case ISO 4217 code, e.g. `usd`, `cny` */
  currency: string;
  /** micro-units credited when paid */
  credit_micro_units: number;
  /** micro-units of first-top-up bonus: offered at creation, what was granted once paid */
  bonus_micro_units: number;
  /** Checkout Session id or Alipay trade_no */
  provider_reference: string | null;
  failure_reason: string | null;
  /** Unix milliseconds */
  created_at: number;
  paid_at: number | null;
  updated_at: number;
  /** minor units the provider refunded so far, cumulative (migration 0018) */
  refunded_minor: number;
  /** micro-units of the credit taken back by refunds and disputes so far (migration 0018) */
  reversed_credit_micro_units: number;
  /** micro-units of the bonus taken back by refunds and disputes so far (migration 0018) */
  reversed_bonus_micro_units: number;
}

/** Row of `topup_disputes` (migration 0018): one provider dispute (chargeback) of a paid top-up order. */
export interface TopupDisputesTable {
  /** `<method>:<provider dispute id>` */
  id: string;
  order_id: string;
  /** minor units disputed */
  amount_minor: number;
  /** `open`, `won` or `lost` */
  status: string;
  /** Unix milliseconds */
  created_at: number;
  updated_at: number;
}

/** Row of `redemption_codes` (migration 0011): one single-use code; the code itself is never stored, only its SHA-256. */
export interface RedemptionCodesTable {
  id: string;
  /** the batch the code was created in (one admin request) */
  batch_id: string;
  /** lowercase hex SHA-256 of the normalised code */
  code_hash: string;
  /** the code's first characters, safe to show in lists */
  code_prefix: string;
  /** micro-units credited on redemption */
  amount: number;
  /** `active`, `redeemed` or `disabled` (an active code past `expires_at` is reported as expired) */
  status: 'active' | 'redeemed' | 'disabled';
  note: string | null;
  /** Unix milliseconds after which the code no longer redeems; null = never */
  expires_at: number | null;
  /** Unix milliseconds */
  created_at: number;
  /** who created the batch: an admin's email or `admin token` */
  created_by: string;
  /** the user who redeemed it */
  redeemed_by: string | null;
  /** Unix milliseconds */
  redeemed_at: number | null;
  /** Unix milliseconds */
  disabled_at: number | null;
}

/** Row of `stored_responses` (migration 0015): one Responses API response kept because the request said `store`. */
export interface StoredResponsesTable {
  /** the gateway's `resp_...` id */
  id: string;
  user_id: string;
  /** the key that created it (any key of the same user may read it) */
  api_key_id: string;
  /** the public model id the client asked for */
  model: string;
  /** the channel that served it, when one did */
  channel_id: string | null;
  /** the vendor's own response id, for pass-through chains on the same channel; never shown to a client */
  vendor_response_id: string | null;
  /** the gateway id of the response this one continued, or null */
  previous_response_id: string | null;
  /** JSON array of the request's input items, with gateway item ids */
  input_items: string;
  /** JSON of the final Response object as the client saw it */
  response: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `message_thread_turns` (migration 0020): one answered turn of a message thread the gateway holds. */
export interface MessageThreadTurnsTable {
  /** the answer's `msg_...` id */
  id: string;
  /** the id of the thread's first turn */
  thread_id: string;
  /** the turn this one continued; null for the first */
  previous_message_id: string | null;
  user_id: string;
  /** the key that owns the thread */
  api_key_id: string;
  /** JSON of the creating request's `system` (first turn only) */
  system: string | null;
  /** JSON of the creating request's `tools` (first turn only) */
  tools: string | null;
  /** JSON array: the turn's request messages, then its answer */
  messages: string;
  /** Unix milliseconds */
  created_at: number;
  /** Unix milliseconds; every turn of a thread moves it on for all its turns */
  expires_at: number;
}

/** Row of `video_tasks` (migration 0016): one asynchronous video job; money columns are micro-units, times Unix ms. */
export interface VideoTasksTable {
  id: string;
  user_id: string;
  api_key_id: string;
  group_id: string;
  /** `spec` or `openai` */
  surface: string;
  public_model: string;
  upstream_model: string;
  channel_id: string | null;
  /** the vendor's job id: private, never shown */
  vendor_task_id: string | null;
  prompt: string;
  requested_seconds: number;
  /** the length the vendor makes and the hold covers */
  seconds: number;
  width: number;
  height: number;
  /** queued, in-progress, completed or failed */
  state: string;
  progress: Generated<number>;
  /** bumped by every transition (compare-and-swap) */
  version: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  expires_at: number;
  /** set when the owner deleted the task; the row stays for its ledger entries */
  deleted_at: number | null;
  /** micro-units held at submit */
  held_amount: number;
  /** micro-units still held: `held_amount` until the terminal transition, then 0 */
  open_hold: number;
  /** micro-units charged at completion (0 until then, and for failed tasks) */
  settled_amount: Generated<number>;
  /** micro-units per second of video before the ratio, as priced at submit */
  price_per_second: number;
  price_ratio_millionths: number;
  generated_seconds: number | null;
  /** what the vendor adapter needs to download the video (private) */
  content_reference: string | null;
  next_poll_at: number;
  poll_attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** storage key of the downloaded video */
  content_location: string | null;
  content_removed_at: number | null;
  request_id: string;
}

/** Row of `two_factor_settings` (migration 0023): a user's TOTP secret, sealed with the secret box. */
export interface TwoFactorSettingsTable {
  user_id: string;
  sealed_secret: string;
  /** Unix milliseconds of the confirming code; null while enrolment waits for it */
  enabled_at: number | null;
  /** the newest 30-second time step whose code was accepted, so it cannot be used again */
  last_used_step: number | null;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `two_factor_recovery_codes` (migration 0023): one single-use recovery code, by its SHA-256. */
export interface TwoFactorRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  /** Unix milliseconds of its use; null while unused */
  used_at: number | null;
}

/** Row of `two_factor_challenges` (migration 0023): a sign-in waiting for its second factor. */
export interface TwoFactorChallengesTable {
  /** SHA-256 of the token in the browser's cookie */
  token_hash: string;
  user_id: string;
  /** where the browser goes once signed in (social sign-in) */
  return_path: string;
  /** Unix milliseconds */
  expires_at: number;
}

/** Row of `request_bodies` (migration 0025): a request's body and its answer, kept only with GATEWAY_REQUEST_BODY_LOG=on. */
export interface RequestBodiesTable {
  /** the request's `x-request-id`, as in `usage_logs.request_id` */
  request_id: string;
  /** Unix milliseconds when the request arrived */
  created_at: number;
  user_id: string;
  api_key_id: string;
  /** the usage log's endpoint, e.g. `chat.completions` */
  endpoint: string;
  /** HTTP status the client received */
  status: number;
  /** the body as the client sent it (UTF-8), cut at the size cap; never a header */
  request_body: string;
  /** bytes of the whole request body, before any cut */
  request_bytes: number;
  /** 1 when `request_body` was cut at the size cap, else 0 */
  request_truncated: number;
  /** the JSON answer the client got, cut at the size cap; null when no answer body was sent */
  response_body: string | null;
  /** bytes of the whole answer body, before any cut */
  response_bytes: number;
  /** 1 when `response_body` was cut at the size cap, else 0 */
  response_truncated: number;
}

/** Row of `key_changes` (migration 0026): the API key one routing or billing revision changed. */
export interface KeyChangesTable {
  /** `routing_revision` or `billing_revision` */
  revision_table: string;
  /** the revision the change committed at */
  revision: number;
  /** the key changed, or null for a change that touched more than one key's routing (a grant given with it) */
  api_key_id: string | null;
}
