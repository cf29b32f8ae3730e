-- Release a lease on one node: compare-and-delete, the same as every Redlock client, so
-- mixed fleets interoperate. Never touches the fence key.
--
-- KEYS[1]  lock key L
-- ARGV[1]  owner id
-- ARGV[2]  optional: a pub/sub channel told about the release (message: the owner id), so
--          clients waiting for L retry at once instead of after their retry delay
--
-- Returns 1 when L held ARGV[1] and was deleted, 0 otherwise (another owner's key is kept).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if ARGV[2] then
    redis.call('PUBLISH', ARGV[2], ARGV[1])
  end
  return 1
end
return 0
