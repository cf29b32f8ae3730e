-- Phase 1 of a fenced acquire: take the lock and read the fence counter, atomically; and, when
-- the client predicts the token, write it in the same step (the one-round-trip path). Also the
-- lock step of a fenced local handoff: the released lease's compare-and-delete and the next
-- acquire in one step (ARGV[5]; handoff.lua is the unfenced counterpart).
--
-- KEYS[1]  lock key L         (value: owner id, expires after ARGV[2] ms)
-- KEYS[2]  fence key F        (decimal integer, no TTL; shares L's cluster slot)
-- KEYS[3]  node marker        (decimal epoch; present iff this node's memory is intact)
-- KEYS[4]  node high-water mark (the largest token ever written on this node)
-- KEYS[5]  optional (with ARGV[6]): the lock's waiter queue, a sorted set of client ids scored
--          by the node-time (ms) at which each stops waiting
-- ARGV[1]  owner id           (128 random bits, hex)
-- ARGV[2]  ttl in ms
-- ARGV[3]  "1" to refuse when the marker is missing, "0" to skip that check (unsafe; experiments only)
-- ARGV[4]  a predicted token T (decimal integer below 2^53), or "0" for none
-- ARGV[5]  optional: the owner id of a lease being released in favour of this request. L is
--          deleted first, whatever follows, if it holds that id: exactly what release.lua
--          would do (unannounced). Without it (or ""), the script never deletes L.
-- ARGV[6]  optional: the id of a waiting client. Refused, it joins the waiter queue (or moves
--          its deadline there, never earlier); granted, it leaves it. release.lua names the first queued
--          client still listening in its announcement, and only that client retries at once.
-- ARGV[7]  with ARGV[6]: how many more ms that acquire waits
--
-- The counter read below is F, or the marker's epoch when F does not exist yet (the floor for
-- new counters), or "0". A prediction is written only if it is above that counter, and only
-- while the lock is ours: exactly what phase 2 would do with a token chosen above it.
--
-- A request that finds L already holding its own owner id was delivered twice: it is granted
-- again rather than refused, so a refusal always means another owner holds L, and the client
-- may skip the cleanup there.
--
-- Returns T itself, or else an array {status, value, written[, holder]}, never an array of one
-- element (the Lettuce driver reads that as T alone):
--   T                  granted, and F and the high-water mark were raised to the predicted T
--                      (not an array: the common case builds no Lua table for its reply,
--                      which costs the servers measurably; docs/analysis.md, section 10)
--   { 1, counter, 0 }  granted; the counter as a decimal string; nothing written
--   { 0, pttl, counter, holder } refused: L is held by the owner id holder for pttl more ms
--                      (integer); the holder tells a client whether rivals split the nodes
--   {-1, 0, 0 }        this node has no marker: it lost its memory and must not take part
if ARGV[5] and ARGV[5] ~= '' and redis.call('GET', KEYS[1]) == ARGV[5] then
  redis.call('DEL', KEYS[1])
end
-- One MGET for the marker, the counter and the high-water mark, and one MSET for the two
-- writes: each redis.call costs more than the Lua around it (this script runs on every fenced
-- acquire).
local marks = redis.call('MGET', KEYS[3], KEYS[2], KEYS[4])
local epoch = marks[1]
if ARGV[3] == '1' and not epoch then
  return { -1, 0, 0 }
end
local fence = marks[2] or epoch or '0'
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local holder = redis.call('GET', KEYS[1])
  if holder ~= ARGV[1] then
    if ARGV[6] then
      local t = redis.call('TIME')
      local wait = tonumber(ARGV[7])
      local deadline = t[1] * 1000 + math.floor(t[2] / 1000) + wait
      local queued = redis.call('ZSCORE', KEYS[5], ARGV[6])
      if not queued or tonumber(queued) < deadline then
        -- a client's entry lasts for its longest waiting acquire (ZADD GT needs Redis 6.2)
        redis.call('ZADD', KEYS[5], deadline, ARGV[6])
      end
      if redis.call('PTTL', KEYS[5]) < wait then
        redis.call('PEXPIRE', KEYS[5], wait)
      end
    end
    return { 0, redis.call('PTTL', KEYS[1]), fence, holder }
  end
end
if ARGV[6] then
  redis.call('ZREM', KEYS[5], ARGV[6])
end
local predicted = tonumber(ARGV[4])
if predicted <= tonumber(fence) then
  return { 1, fence, 0 }
end
if predicted > tonumber(marks[3] or '0') then
  redis.call('MSET', KEYS[2], ARGV[4], KEYS[4], ARGV[4])
else
  redis.call('SET', KEYS[2], ARGV[4])
end
return ARGV[4]
