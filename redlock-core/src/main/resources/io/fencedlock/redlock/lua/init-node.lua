-- Mark a node as initialized: at the start of a new deployment, or to re-admit a node that
-- lost its memory. The epoch is above every token that may have been issued, so the fence
-- counters the node creates from now on start above them.
--
-- KEYS[1]  node marker
-- KEYS[2]  node high-water mark
-- KEYS[3]  the name of the node's empty incarnation (see name-empty-node.lua)
-- ARGV[1]  epoch (decimal integer below 2^53)
-- ARGV[2]  optional, for a re-admission: the name of the empty incarnation the client waited
--          out. The marker is set only if the node still carries that name, so a node that
--          lost its memory again since then is not re-admitted.
--
-- Returns {status, epoch}:
--   { 1, ARGV[1] }  this call set the marker
--   { 0, epoch }    the node already had a marker (another client set it first; SET NX
--                   semantics, so racing clients agree on one value)
--   {-1, "" }       not set: the node's empty incarnation is not the one named in ARGV[2]
local current = redis.call('GET', KEYS[1])
if current then
  return { 0, current }
end
if ARGV[2] and redis.call('GET', KEYS[3]) ~= ARGV[2] then
  return { -1, '' }
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return { 1, ARGV[1] }
