-- Extend a lease on one node: compare-and-lengthen. The key's expiry only ever grows: a
-- request that would bring it closer leaves it alone, so an extend that fails, arrives late
-- or races another extend of the same lease can never cut short a validity the lease already
-- relies on. Never re-creates an expired key.
--
-- KEYS[1]  lock key L
-- ARGV[1]  owner id
-- ARGV[2]  ttl in ms, counted from now
--
-- Returns 1 when L holds ARGV[1] and expires no sooner than ARGV[2] ms from now (its expiry
-- was raised to that if it was sooner), 0 when L does not hold ARGV[1] (nothing is written).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local pttl = redis.call('PTTL', KEYS[1])
if pttl >= 0 and pttl < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
