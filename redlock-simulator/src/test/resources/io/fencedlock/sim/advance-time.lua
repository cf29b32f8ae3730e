-- Test only (NodeModelFidelityIT): makes a real node look as if ARGV[1] ms had passed, as the
-- model's clock will: every key with a TTL gets that much closer to expiring, and a key whose
-- TTL is no more than that is deleted. Atomic, so no real time passes in between.
--
-- ARGV[1]  milliseconds
-- Returns the number of keys moved or deleted.
local delta = tonumber(ARGV[1])
local moved = 0
for _, key in ipairs(redis.call('KEYS', '*')) do
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
