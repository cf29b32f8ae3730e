-- Extend a lease of several resources on one node: compare-and-lengthen each lock key, all or
-- nothing: if any key no longer holds the owner, nothing is written. Never re-creates a key,
-- never shortens one (see extend.lua).
--
-- KEYS[1]..KEYS[n]  lock keys
-- ARGV[1]     owner id
-- ARGV[2]     ttl in ms, counted from now
--
-- Returns 1 when every key held ARGV[1] and now expires no sooner than ARGV[2] ms from now,
-- 0 otherwise.
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) ~= ARGV[1] then
    return 0
  end
end
for i = 1, #KEYS do
  local pttl = redis.call('PTTL', KEYS[i])
  if pttl >= 0 and pttl < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  end
end
return 1
