-- Phase 2 of a fenced acquire of several resources: write each token back, only while every
-- lock is still the owner's; all or nothing.
--
-- KEYS[1]..KEYS[n]    lock keys L1..Ln
-- KEYS[n+1..2n]    fence keys F1..Fn
-- KEYS[2n+1]       node high-water mark
-- ARGV[1]          owner id
-- ARGV[2..n+1]     tokens T1..Tn (decimal integers below 2^53)
--
-- Returns 1 when every L_i held ARGV[1] (each F_i and the high-water mark are now >= their
-- T_i; neither ever decreases), 0 otherwise (nothing is written).
local n = math.floor((#KEYS - 1) / 2)
for i = 1, n do
  if redis.call('GET', KEYS[i]) ~= ARGV[1] then
    return 0
  end
end
local high = tonumber(redis.call('GET', KEYS[2 * n + 1]) or '0')
for i = 1, n do
  local token = tonumber(ARGV[i + 1])
  if token > tonumber(redis.call('GET', KEYS[n + i]) or '0') then
    redis.call('SET', KEYS[n + i], ARGV[i + 1])
  end
  if token > high then
    high = token
  end
end
if high > tonumber(redis.call('GET', KEYS[2 * n + 1]) or '0') then
  redis.call('SET', KEYS[2 * n + 1], tostring(high))
end
return 1
