-- Test only (NodeModelFidelityIT): the node's whole state and its clock, read in one atomic
-- step, to compare with the model's.
--
-- Returns { seconds, microseconds, key1, value1, pttl1, key2, value2, pttl2, ... }: a value is
-- the string, or for a sorted set (a waiter queue) { member1, score1, member2, score2, ... } in
-- Redis's order (by score, then member).
local time = redis.call('TIME')
local out = { time[1], time[2] }
for _, key in ipairs(redis.call('KEYS', '*')) do
  out[#out + 1] = key
  if redis.call('TYPE', key).ok == 'zset' then
    out[#out + 1] = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  else
    out[#out + 1] = redis.call('GET', key)
  end
  out[#out + 1] = redis.call('PTTL', key)
end
return out
