-- wrk script for scripts/benchmark-collect: simulated devices POSTing batches of events to
-- `herald collect`. Every event has an id of its own (thread, run, counter), so each one is
-- new; tenant and app are left out (the key says them).
--
-- Paced (HERALD_DELAY_MS > 0), each device waits a random time between batches, uniform in
-- 0..2 × HERALD_DELAY_MS (the same mean rate): devices are independent, and a fixed pause
-- would keep all 1,000 connections in step, a burst of 20,000 events each second that no
-- real fleet sends. wrk sends every connection's first request as soon as it connects, so
-- paced, that first one is a `GET /healthz` (no events), and the device's first batch
-- follows after its random wait: the run does not start with every device at once.
--   HERALD_KEY       the app key (acme/weather of examples/campaigns.yaml)
--   HERALD_BATCH     events per request (default 20)
--   HERALD_DELAY_MS  pause before each request on a connection (0: as fast as answered)
--   HERALD_RUN       a number kept in every id, different per wrk run
local key = os.getenv("HERALD_KEY")
local batch = tonumber(os.getenv("HERALD_BATCH") or "20")
local pause = tonumber(os.getenv("HERALD_DELAY_MS") or "0")
local run = tonumber(os.getenv("HERALD_RUN") or "0")
local campaigns = { "spring-sale", "welcome", "tour" }
local kinds = { "delivered", "impression", "click", "dismiss" }
-- The last five days (UTC), in turn: the collector takes only the last year's events.
local days = {}
for k = 1, 5 do days[k] = os.date("!%Y-%m-%d", os.time() - k * 86400) end
local threads = {}
local counter = 0
-- Requests this thread has made, and its connections (the first that many are each
-- connection's first request).
local made = 0
local connections = 0
-- Answers by status, as plain numbers (wrk copies only those between its threads).
ok = 0
refused = 0

function setup(thread)
   thread:set("thread_id", #threads + 1)
   table.insert(threads, thread)
end

function init(args)
   wrk.headers["Authorization"] = "Bearer " .. key
   wrk.headers["Content-Type"] = "application/x-ndjson"
   connections = tonumber(os.getenv("HERALD_CONNECTIONS_PER_THREAD") or "0")
   math.randomseed(os.time() * 1000 + thread_id)
end

function request()
   made = made + 1
   if pause > 0 and made <= connections then
      return wrk.format("GET", "/healthz")
   end
   local lines = {}
   for i = 1, batch do
      counter = counter + 1
      local n = counter
      lines[i] = string.format(
         '{"event_id":"%08x-%04x-4000-8000-%012x","campaign":"%s","device":"d-%d","kind":"%s","at":"%sT12:00:00Z","locale":"en","app_version":"3.1.0"}',
         thread_id, run, n, campaigns[n % 3 + 1], (thread_id * 7919 + n) % 50000, kinds[n % 4 + 1], days[n % 5 + 1])
   end
   return wrk.format("POST", "/v1/events", nil, table.concat(lines, "\n") .. "\n")
end

function delay()
   if pause == 0 then return 0 end
   return math.random(0, 2 * pause)
end

function response(status, headers, body)
   if status == 200 then ok = ok + 1 else refused = refused + 1 end
end

function done(summary, latency, requests)
   local answered, other = 0, 0
   for _, thread in ipairs(threads) do
      answered = answered + (thread:get("ok") or 0)
      other = other + (thread:get("refused") or 0)
   end
   local parts = { "200=" .. answered, "other=" .. other }
   io.write(string.format("RESULT requests=%d errors=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d statuses=%s\n",
      summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
      summary.duration, latency:percentile(50), latency:percentile(99), latency.max, table.concat(parts, ",")))
end
