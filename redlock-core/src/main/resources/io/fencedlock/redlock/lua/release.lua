-- Release a lease on one node: compare-and-delete, the same as every Redlock client, so
-- mixed fleets interoperate. Never touches the fence key.
--
-- KEYS[1]  lock key L
-- ARGV[1]  owner id
--
-- Returns 1 when L held ARGV[1] and was deleted, 0 otherwise (another owner's key is kept).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
