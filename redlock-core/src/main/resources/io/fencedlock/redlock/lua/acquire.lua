-- Phase 1 of a fenced acquire: take the lock and read the fence counter, atomically.
--
-- KEYS[1]  lock key L         (value: owner id, expires after ARGV[2] ms)
-- KEYS[2]  fence key F        (decimal integer, no TTL; shares L's cluster slot)
-- KEYS[3]  node marker        (decimal epoch; present iff this node's memory is intact)
-- ARGV[1]  owner id           (128 random bits, hex)
-- ARGV[2]  ttl in ms
-- ARGV[3]  "1" to refuse when the marker is missing, "0" to skip that check (unsafe; experiments only)
--
-- Returns a two-element array {status, value}:
--   { 1, F }      granted; F is the fence counter as a decimal string, or the marker's
--                 epoch when F does not exist yet (the floor for new counters), or "0"
--   { 0, pttl }   refused: L is held by someone else; pttl is its remaining ms (integer)
--   {-1, 0 }      this node has no marker: it lost its memory and must not take part
local epoch = redis.call('GET', KEYS[3])
if ARGV[3] == '1' and not epoch then
  return { -1, 0 }
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return { 0, redis.call('PTTL', KEYS[1]) }
end
local fence = redis.call('GET', KEYS[2])
if not fence then
  fence = epoch or '0'
end
return { 1, fence }
