-- Extend a lease on one node: compare-and-PEXPIRE. Never re-creates an expired key.
--
-- KEYS[1]  lock key L
-- ARGV[1]  owner id
-- ARGV[2]  new ttl in ms, counted from now
--
-- Returns 1 when L held ARGV[1] and its expiry was reset, 0 otherwise (nothing is written).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
