-- wrk's script for scripts/bench-requestpath.sh: GraphQL requests over kept-alive connections,
-- each request as the next person of a file, in turn (every thread starts at its own place in
-- the file, so that connections do not walk in step).
--
--   wrk -t2 -c8 -d20s --latency -s scripts/bench-requestpath.lua http://127.0.0.1:PORT -- REQUESTS [DELAY_MS]
--
-- REQUESTS is a file of lines `SLUG TOKEN BODY`: the tenant (the request goes to
-- /t/SLUG/graphql), the bearer token (`-` for none: a login) and the GraphQL JSON body, which may
-- hold spaces. DELAY_MS (optional) makes each connection wait that long before each request:
-- a probe at a steady rate beside another load (wrk's latencies leave the wait out).
--
-- At the end it prints one line that bench-requestpath.sh reads:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B errors=E
-- where errors counts answers that were not HTTP 200 or held GraphQL "errors", and socket errors.

local threads = {}
local counter = 0

function setup(thread)
   counter = counter + 1
   thread:set("number", counter)
   table.insert(threads, thread)
end

local requests = {}
local next_index = 1
errors = 0

function init(args)
   local path = args[1]
   if path == nil then error("bench-requestpath.lua: the requests file is wrk's first argument after --") end
   for line in io.lines(path) do
      local slug, token, body = line:match("^(%S+) (%S+) (.+)$")
      if slug then
         local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
         if token ~= "-" then headers["Authorization"] = "Bearer " .. token end
         table.insert(requests, wrk.format("POST", "/t/" .. slug .. "/graphql", headers, body))
      end
   end
   if #requests == 0 then error("bench-requestpath.lua: no requests in " .. path) end
   -- Each thread starts somewhere else in the list.
   next_index = ((number - 1) * 7919) % #requests + 1
   -- wrk asks whether delay() exists after init(): it is defined only for a probe, so that
   -- a load's requests are not each put behind a timer.
   local wait = tonumber(args[2] or "0") or 0
   if wait > 0 then delay = function() return wait end end
end

function request()
   local r = requests[next_index]
   next_index = next_index % #requests + 1
   return r
end

function response(status, headers, body)
   if status ~= 200 or string.find(body, '"errors"', 1, true) then
      errors = errors + 1
      if errors <= 2 then io.stderr:write("bench-requestpath.lua: HTTP " .. status .. " " .. string.sub(body, 1, 300) .. "\n") end
   end
end

function done(summary, latency, requests_made)
   local failed = 0
   for _, thread in ipairs(threads) do failed = failed + (thread:get("errors") or 0) end
   local e = summary.errors
   failed = failed + e.connect + e.read + e.write + e.timeout
   local seconds = summary.duration / 1e6
   io.write(string.format("RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f errors=%d\n",
      summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
      latency:percentile(99) / 1000, failed))
end
