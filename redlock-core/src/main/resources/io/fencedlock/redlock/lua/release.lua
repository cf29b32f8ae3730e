-- Release a lease on one node: compare-and-delete, the same as every Redlock client, so
-- mixed fleets stay safe together (clients that do not know the waiter queue below are not
-- woken by a naming release, and wait for their retry delay). Never touches the fence key.
--
-- KEYS[1]  lock key L
-- KEYS[2]  optional (with ARGV[3] and ARGV[4]): L's waiter queue (see acquire.lua's ARGV[6])
-- ARGV[1]  owner id
-- ARGV[2]  optional: L's pub/sub channel, told about the release so that clients waiting for L
--          retry at once instead of after their retry delay.
--          Without KEYS[2], every node that deletes announces: the message is the owner id, and
--          a waiting client acts on the copy of a quorum of nodes.
--          With KEYS[2], this node (the lead node of a fenced lease) announces for all of them,
--          and names one waiting client: it takes waiters off the front of the queue (waiters
--          whose wait is over are dropped first) until one is still listening on its own channel
--          ARGV[3] .. waiter, which is told "owner\nwaiter\ntoken" (ARGV[4]: the released lease's
--          token, which the named client's next acquire predicts past). If no queued waiter
--          listens (at most 8 are tried), "owner\n" on ARGV[2] tells every waiting client at once.
-- ARGV[3]  with KEYS[2]: the prefix of the waiters' own channels
-- ARGV[4]  with KEYS[2]: the released lease's token
--
-- Returns 1 when L held ARGV[1] and was deleted, 0 otherwise (another owner's key is kept, and
-- nothing is announced); with KEYS[2], 2 when it was deleted and a waiter named (1: everyone told).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
if not ARGV[2] then
  return 1
end
if not KEYS[2] then
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return 1
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  local t = redis.call('TIME')
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', t[1] * 1000 + math.floor(t[2] / 1000))
  for _ = 1, 8 do
    local first = redis.call('ZPOPMIN', KEYS[2])[1]
    if not first then
      break
    end
    local message = ARGV[1] .. '\n' .. first .. '\n' .. ARGV[4]
    if redis.call('PUBLISH', ARGV[3] .. first, message) > 0 then
      return 2
    end
  end
end
redis.call('PUBLISH', ARGV[2], ARGV[1] .. '\n')
return 1
