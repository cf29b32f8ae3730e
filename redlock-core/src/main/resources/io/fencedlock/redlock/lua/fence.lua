-- Phase 2 of a fenced acquire: write the chosen token back, only while the lock is ours.
--
-- KEYS[1]  lock key L
-- KEYS[2]  fence key F
-- KEYS[3]  node high-water mark: the largest token ever written on this node, read when
--          a node that lost its memory is re-admitted
-- ARGV[1]  owner id
-- ARGV[2]  token T (decimal integer below 2^53, so Lua's doubles hold it exactly)
--
-- Returns 1 when L still holds ARGV[1] (F and the high-water mark are now >= T; neither ever
-- decreases), 0 when the lock is no longer ours (nothing is written).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local token = tonumber(ARGV[2])
if token > tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('SET', KEYS[2], ARGV[2])
end
if token > tonumber(redis.call('GET', KEYS[3]) or '0') then
  redis.call('SET', KEYS[3], ARGV[2])
end
return 1
