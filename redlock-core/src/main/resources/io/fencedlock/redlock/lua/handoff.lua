-- The lock step of an unfenced local handoff: release.lua for the lease being released and a
-- plain SET NX PX for the waiting acquire, in one atomic step. Like every unfenced request it
-- touches only the lock key. (A fenced handoff uses acquire.lua with its ARGV[5].)
--
-- KEYS[1]  lock key L
-- ARGV[1]  owner id of the waiting acquire
-- ARGV[2]  ttl in ms
-- ARGV[3]  owner id of the lease being released; L is deleted first if it holds that id
--
-- Returns acquire.lua's array shape, {status, value, written[, holder]}, never an array of one
-- element (the Lettuce driver reads that as acquire.lua's token alone):
--   { 1, 0, 0 }          granted (also when L already holds ARGV[1]: the request was delivered
--                        twice, so a refusal always means another owner)
--   { 0, pttl, 0, holder } refused: L is held by the owner id holder for pttl more ms
if redis.call('GET', KEYS[1]) == ARGV[3] then
  redis.call('DEL', KEYS[1])
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return { 1, 0, 0 }
end
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return { 1, 0, 0 }
end
return { 0, redis.call('PTTL', KEYS[1]), 0, holder }
