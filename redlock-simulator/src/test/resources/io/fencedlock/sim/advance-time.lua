-- Test only (NodeModelFidelityIT): makes a real node look as if ARGV[1] ms had passed, as the
-- model's clock will: every key with a TTL gets that much closer to expiring, and a key whose
-- TTL is no more than that is deleted; every score in a sorted set (a waiter queue, scored by
-- node time) gets that much lower, so that it is as near the node's TIME as the model's score is
-- to the model's clock. Atomic, so no real time passes in between.
--
-- ARGV[1]  milliseconds
-- Returns the number of keys moved or deleted.
local delta = tonumber(ARGV[1])
local moved = 0
for _, key in ipairs(redis.call('KEYS', '*')) do
  if redis.call('TYPE', key).ok == 'zset' then
    local scored = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
    for i = 1, #scored, 2 do
      redis.call('ZADD', key, tonumber(scored[i + 1]) - delta, scored[i])
    end
  end
  local pttl = redis.call('PTTL', key)
  if pttl >= 0 then
    if pttl <= delta then
      redis.call('DEL', key)
    else
      redis.call('PEXPIRE', key, pttl - delta)
    end
    moved = moved + 1
  end
end
return moved
