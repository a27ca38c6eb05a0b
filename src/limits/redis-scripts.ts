/**
 * @module limits/redis-scripts
 * The Lua scripts behind the shared limiter. Redis runs a script as one
 * atomic step, so "check the window and quotas, then count" cannot
 * interleave between instances: two instances together accept exactly
 * what one would.
 *
 * The window is the same ring of accepted timestamps as in process memory
 * (sliding-window.ts), kept as a Redis list, oldest first: expired heads are
 * popped (each entry is pushed once and popped once, O(1) amortized), and a
 * hit is accepted while the list holds fewer than `limit` entries. Time
 * comes from Redis's own clock (TIME), so instances with skewed clocks still
 * share one exact window; tests may pass a time instead.
 */

/**
 * KEYS: window list, organization hour counter, organization day counter,
 *       failed-auth window of the client address, verified-credentials
 *       marker (see AUTH_SCRIPT).
 * ARGV: limit, window ms, now ms (-1 = Redis TIME), hourly quota (-1 = none),
 *       daily quota (-1 = none), hour counter ttl ms, day counter ttl ms,
 *       failed-auth entry to release (-1 = none; see AUTH_SCRIPT),
 *       marker ttl ms (-1 = set no marker).
 * Returns {outcome, count, resetMs}: outcome 0 accepted, 1 rate limited,
 * 2 hourly quota spent, 3 daily quota spent; count = entries in the window
 * after the call; resetMs = until the oldest entry leaves the window.
 */
export const ADMIT_SCRIPT = `
if ARGV[8] ~= '-1' then redis.call('LREM', KEYS[4], -1, ARGV[8]) end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The marker holds its expiry by the script's clock, which tests may set.
if ARGV[9] ~= '-1' then redis.call('SET', KEYS[5], now + tonumber(ARGV[9]), 'PX', ARGV[9]) end
local cutoff = now - window
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head or tonumber(head) > cutoff then break end
  redis.call('LPOP', KEYS[1])
end
local count = redis.call('LLEN', KEYS[1])
local reset = 0
local oldest = redis.call('LINDEX', KEYS[1], 0)
if oldest then reset = tonumber(oldest) + window - now end
if count >= limit then return {1, count, reset} end
local hourly = tonumber(ARGV[4])
local daily = tonumber(ARGV[5])
-- Daily first: when both are spent, the day's end is when a retry can succeed.
if daily >= 0 and tonumber(redis.call('GET', KEYS[3]) or '0') >= daily then return {3, count, reset} end
if hourly >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= hourly then return {2, count, reset} end
redis.call('RPUSH', KEYS[1], now)
redis.call('PEXPIRE', KEYS[1], window)
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6])) end
if redis.call('INCR', KEYS[3]) == 1 then redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[7])) end
if count == 0 then reset = window end
return {0, count + 1, reset}
`;

/**
 * The failed-authentication window of one client address: reserves a slot
 * (see AuthReservation in limiter.ts): the entry is pushed now and stays a
 * failure unless ADMIT_SCRIPT (or a plain LREM, outside an admission)
 * removes it; a full window takes nothing, and then tells whether the
 * presented credentials have a verified-credentials marker (set by
 * ADMIT_SCRIPT, keyed by their fingerprint; see AuthAttempt.vouched).
 * KEYS: window list, marker (or any key, unread when ARGV[4] is 0).
 * ARGV: limit, window ms, now ms (-1 = Redis TIME), look for a marker (1/0).
 * Returns {taken (1/0), count, resetMs, entry, vouched (1/0)}: entry
 * identifies the slot for the release; equal entries are interchangeable,
 * so removing any one of them keeps the list in time order.
 */
export const AUTH_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cutoff = now - window
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head or tonumber(head) > cutoff then break end
  redis.call('LPOP', KEYS[1])
end
local count = redis.call('LLEN', KEYS[1])
local taken = 0
local vouched = 0
if count < limit then
  redis.call('RPUSH', KEYS[1], now)
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  taken = 1
elseif ARGV[4] == '1' then
  local expires = redis.call('GET', KEYS[2])
  if expires and tonumber(expires) > now then vouched = 1 end
end
local reset = 0
local oldest = redis.call('LINDEX', KEYS[1], 0)
if oldest then reset = tonumber(oldest) + window - now end
return {taken, count, reset, now, vouched}
`;
