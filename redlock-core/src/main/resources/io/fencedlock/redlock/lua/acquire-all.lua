-- The lock step of a fenced acquire of several resources at once, all or nothing on this node:
-- either every lock key is taken for the owner and every fence counter read, or nothing is
-- written. Keys of different resources need no common hash tag on an independent master; on
-- Redis Cluster they would have to share one slot.
--
-- KEYS[1]..KEYS[n]    lock keys L1..Ln
-- KEYS[n+1..2n]    fence keys F1..Fn (F_i shares L_i's slot)
-- KEYS[2n+1]       node marker
-- ARGV[1]          owner id
-- ARGV[2]          ttl in ms
-- ARGV[3]          "1" to refuse when the marker is missing, "0" to skip that check (unsafe)
--
-- A lock key that already holds the owner (a request delivered twice) counts as taken.
--
-- Returns:
--   { 1, c1, ..., cn }        granted: every L_i now holds the owner; c_i is F_i, or the
--                             marker's epoch when F_i does not exist yet, or "0"
--   { 0, i, holder, pttl }    refused, nothing written: L_i is held by holder for pttl more ms
--   { -1 }                    this node has no marker: nothing written
local n = math.floor((#KEYS - 1) / 2)
local epoch = redis.call('GET', KEYS[2 * n + 1])
if ARGV[3] == '1' and not epoch then
  return { -1 }
end
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if holder and holder ~= ARGV[1] then
    return { 0, i, holder, redis.call('PTTL', KEYS[i]) }
  end
end
local counters = { 1 }
for i = 1, n do
  redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
  counters[i + 1] = redis.call('GET', KEYS[n + i]) or epoch or '0'
end
return counters
