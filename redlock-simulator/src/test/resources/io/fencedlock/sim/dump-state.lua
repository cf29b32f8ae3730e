-- Test only (NodeModelFidelityIT): the node's whole state and its clock, read in one atomic
-- step, to compare with the model's.
--
-- Returns { seconds, microseconds, key1, value1, pttl1, key2, value2, pttl2, ... } (every key
-- in this test holds a string).
local time = redis.call('TIME')
local out = { time[1], time[2] }
for _, key in ipairs(redis.call('KEYS', '*')) do
  out[#out + 1] = key
  out[#out + 1] = redis.call('GET', key)
  out[#out + 1] = redis.call('PTTL', key)
end
return out
