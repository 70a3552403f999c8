/** A script's answer when the node's epoch is not Redis's: Redis lost its data since the node last wrote to it. */
export const walletStale = -3;
/** A script's answer when Redis has no wallet for the user. */
export const walletMissing = -1;
/** A hold's answer when the key has a cap and Redis has no copy of its stored spend. */
export const keySpendMissing = -4;

// Every script takes KEYS[1] = the wallet, KEYS[2] = the epoch key and ARGV[1] = the node's epoch, and refuses to
// touch a wallet of another epoch (its node's fields would count holds of a Redis that no longer exists).
const epochCheck = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return ${walletStale} end
`;

// Wallet hash fields: `durable` and `debt` (the stored balance and debt at `sequence`), and per node `held:<node>`
// (live holds), `pending:<node>` (settled charges that node has not written yet) and `debt:<node>` (debt it has
// not written yet). Spendable = durable − Σ held − Σ pending; owed = debt + Σ debt:<node>.
const spendable = `
local fields = redis.call('HGETALL', KEYS[1])
local spendable = 0
local owed = 0
for index = 1, #fields, 2 do
  local name = fields[index]
  local value = tonumber(fields[index + 1])
  if name == 'durable' then spendable = spendable + value
  elseif name == 'debt' or string.sub(name, 1, 5) == 'debt:' then owed = owed + value
  elseif string.sub(name, 1, 5) == 'held:' or string.sub(name, 1, 8) == 'pending:' then spendable = spendable - value end
end
`;

// A key's spend hash (KEYS[4] of a hold): `spent` (stored), per node `held:<node>` and `pending:<node>` (whole costs
// settled and not yet written). Total = spent + Σ held + Σ pending, checked against the key's cap.
const keySpent = `
local keySpent = 0
local keyFields = redis.call('HGETALL', KEYS[4])
for index = 1, #keyFields, 2 do keySpent = keySpent + tonumber(keyFields[index + 1]) end
`;

// Lowers a node field by ARGV[index], never below zero (a field of an earlier wallet may be gone), removing it at zero.
const lowerField = `
local function lower(key, field, amount)
  local value = tonumber(redis.call('HGET', key, field) or '0') - amount
  if value > 0 then redis.call('HSET', key, field, value) else redis.call('HDEL', key, field) end
end
`;

/**
 * The wallet's scripts. hold: ARGV node, amount, user id, key cap (-1: none); KEYS[3] the node's user set, KEYS[4]
 * the key's spend; answers 1 (held), 0 (insufficient), 2 (an unpaid debt stands), 3 (the key's cap) or -1/-3/-4.
 * settle: ARGV node, held, cost; KEYS[3] the key's spend; releases the hold, charges what is spendable and records the
 * rest as the node's unwritten debt; answers {charged, uncovered}. applyKeySpend (KEYS[1] the key's spend): ARGV node,
 * written cost. reconcileKeySpend: ARGV node, stored spend ('' unknown), held, pending, whether to write the node's
 * fields, the spend to start from when Redis has none and the stored one is unknown. apply: ARGV stored
 * balance, sequence, node, written charge, stored debt, written debt. reconcile: ARGV stored balance, sequence, debt,
 * node, held, pending, unwritten debt, whether to write the node's fields, user id; answers {existed, durable drift,
 * previous held, previous pending, previous debt, wrote fields}.
 */
export const walletScripts = {
  hold: `${epochCheck}
if redis.call('EXISTS', KEYS[1]) == 0 then return ${walletMissing} end
${spendable}
if owed > 0 then return 2 end
local cap = tonumber(ARGV[5])
if cap >= 0 then
  if redis.call('HEXISTS', KEYS[4], 'spent') == 0 then return ${keySpendMissing} end
  ${keySpent}
  if keySpent + tonumber(ARGV[3]) > cap then return 3 end
end
if spendable < tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'held:' .. ARGV[2], ARGV[3])
redis.call('HINCRBY', KEYS[4], 'held:' .. ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[4])
return 1
`,
  settle: `${epochCheck}
if redis.call('EXISTS', KEYS[1]) == 0 then return ${walletMissing} end
${lowerField}
lower(KEYS[1], 'held:' .. ARGV[2], tonumber(ARGV[3]))
lower(KEYS[3], 'held:' .. ARGV[2], tonumber(ARGV[3]))
${spendable}
local cost = tonumber(ARGV[4])
local charge = math.min(cost, math.max(0, spendable))
if charge > 0 then redis.call('HINCRBY', KEYS[1], 'pending:' .. ARGV[2], charge) end
if cost > charge then redis.call('HINCRBY', KEYS[1], 'debt:' .. ARGV[2], cost - charge) end
if cost > 0 and redis.call('EXISTS', KEYS[3]) == 1 then redis.call('HINCRBY', KEYS[3], 'pending:' .. ARGV[2], cost) end
return {charge, cost - charge}
`,
  apply: `${epochCheck}
if redis.call('EXISTS', KEYS[1]) == 0 then return ${walletMissing} end
${lowerField}
local sequence = tonumber(redis.call('HGET', KEYS[1], 'sequence') or '-1')
if sequence < tonumber(ARGV[3]) then redis.call('HSET', KEYS[1], 'durable', ARGV[2], 'sequence', ARGV[3], 'debt', ARGV[6]) end
if tonumber(ARGV[5]) ~= 0 then lower(KEYS[1], 'pending:' .. ARGV[4], tonumber(ARGV[5])) end
if tonumber(ARGV[7]) ~= 0 then lower(KEYS[1], 'debt:' .. ARGV[4], tonumber(ARGV[7])) end
return 1
`,
  applyKeySpend: `${epochCheck}
if redis.call('EXISTS', KEYS[1]) == 0 then return ${walletMissing} end
${lowerField}
lower(KEYS[1], 'pending:' .. ARGV[2], tonumber(ARGV[3]))
if redis.call('HEXISTS', KEYS[1], 'spent') == 1 then redis.call('HINCRBY', KEYS[1], 'spent', ARGV[3]) end
return 1
`,
  reconcileKeySpend: `${epochCheck}
local previous = {0, 0}
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'spent', ARGV[3])
elseif redis.call('HEXISTS', KEYS[1], 'spent') == 0 then redis.call('HSET', KEYS[1], 'spent', ARGV[7]) end
if ARGV[6] == '1' then
  local names = {'held:', 'pending:'}
  for index = 1, 2 do
    local field = names[index] .. ARGV[2]
    previous[index] = tonumber(redis.call('HGET', KEYS[1], field) or '0')
    if tonumber(ARGV[3 + index]) ~= 0 then redis.call('HSET', KEYS[1], field, ARGV[3 + index])
    else redis.call('HDEL', KEYS[1], field) end
  end
end
return {previous[1], previous[2], tonumber(ARGV[6])}
`,
  reconcile: `${epochCheck}
local existed = redis.call('EXISTS', KEYS[1])
local stored = tonumber(ARGV[3])
local sequence = tonumber(redis.call('HGET', KEYS[1], 'sequence') or '-1')
local durableDrift = 0
if sequence < stored then
  redis.call('HSET', KEYS[1], 'durable', ARGV[2], 'sequence', ARGV[3], 'debt', ARGV[4])
elseif sequence == stored then
  local durable = tonumber(redis.call('HGET', KEYS[1], 'durable') or '0')
  local debt = tonumber(redis.call('HGET', KEYS[1], 'debt') or '0')
  durableDrift = math.abs(durable - tonumber(ARGV[2])) + math.abs(debt - tonumber(ARGV[4]))
  if durableDrift > 0 then redis.call('HSET', KEYS[1], 'durable', ARGV[2], 'debt', ARGV[4]) end
end
local previous = {0, 0, 0}
if ARGV[9] == '1' then
  local names = {'held:', 'pending:', 'debt:'}
  local owes = false
  for index = 1, 3 do
    local field = names[index] .. ARGV[5]
    previous[index] = tonumber(redis.call('HGET', KEYS[1], field) or '0')
    if tonumber(ARGV[5 + index]) ~= 0 then
      redis.call('HSET', KEYS[1], field, ARGV[5 + index])
      owes = true
    else
      redis.call('HDEL', KEYS[1], field)
    end
  end
  if owes then redis.call('SADD', KEYS[3], ARGV[10]) else redis.call('SREM', KEYS[3], ARGV[10]) end
end
return {existed, durableDrift, previous[1], previous[2], previous[3], tonumber(ARGV[9])}
`,
} as const;
