-- Release a lease of several resources on one node: compare-and-delete each lock key that
-- holds the owner (another owner's key is kept), announcing each delete. Never touches a fence
-- key.
--
-- KEYS[1]..KEYS[n]    lock keys
-- ARGV[1]          owner id
-- ARGV[2..n+1]     optional: per key, a pub/sub channel told about its release
--
-- Returns how many keys were deleted.
local deleted = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('DEL', KEYS[i])
    deleted = deleted + 1
    if ARGV[i + 1] then
      redis.call('PUBLISH', ARGV[i + 1], ARGV[1])
    end
  end
end
return deleted
