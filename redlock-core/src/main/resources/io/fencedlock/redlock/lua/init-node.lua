-- Mark a node as initialized: at the start of a new deployment, or to re-admit a node that
-- lost its memory. The epoch is above every token that may have been issued, so the fence
-- counters the node creates from now on start above them.
--
-- KEYS[1]  node marker
-- KEYS[2]  node high-water mark
-- ARGV[1]  epoch (decimal integer below 2^53)
--
-- Returns the node's marker epoch after the call: ARGV[1] if this call set it, or the epoch
-- another client set first (SET NX semantics, so racing clients agree on one value).
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('SET', KEYS[2], ARGV[1])
  return ARGV[1]
end
return redis.call('GET', KEYS[1])
