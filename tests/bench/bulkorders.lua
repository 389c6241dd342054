-- Places a counted number of orders through the service API (validated and written by the
-- order service like any other order): POSTs spread over the catalog, each with a unique
-- customerRef. Used by console.sh (one line, no callback URL: no webhook deliveries) and by
-- deliveries.mjs (GH_LINES=2 or 1 and a callback URL). Run with wrk -t1 (the counters are per
-- thread) and a long -d: the thread stops once GH_COUNT orders have been created (201) and
-- prints "stopped"; wrk's main thread sleeps through -d regardless, so the caller sends it
-- SIGINT then. Requests still under way at the stop may create up to -c more: callers count
-- the orders on the server. Set by the caller: GH_CUSTOMER, GH_UPCS (space-separated),
-- GH_COUNT, GH_REF_PREFIX, and optionally GH_LINES (default 1) and GH_CALLBACK.
local customer = os.getenv("GH_CUSTOMER")
local count = tonumber(os.getenv("GH_COUNT"))
local prefix = os.getenv("GH_REF_PREFIX") or "bench"
local lines = tonumber(os.getenv("GH_LINES") or "1")
local callback = os.getenv("GH_CALLBACK")
local upcs = {}
for upc in string.gmatch(os.getenv("GH_UPCS"), "%S+") do
  upcs[#upcs + 1] = upc
end
local path = "/v1/customers/" .. customer .. "/orders"
local headers = {["Content-Type"] = "application/json"}
local threads = {}
sent, created, failed, stopped = 0, 0, 0, false

function setup(thread)
  threads[#threads + 1] = thread
end

function request()
  sent = sent + 1
  local parts = {}
  for i = 0, lines - 1 do
    parts[#parts + 1] = string.format('{"upc":"%s","orderQuantity":%d}',
                                      upcs[(sent + i) % #upcs + 1], (sent + i) % 3 + 1)
  end
  local body = string.format('{"customerRef":"%s-%d","beerOrderLines":[%s]%s}', prefix, sent,
                             table.concat(parts, ","),
                             callback and string.format(',"orderStatusCallbackUrl":"%s"', callback) or "")
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  else
    failed = failed + 1
  end
  if created >= count and not stopped then
    stopped = true
    wrk.thread:stop()
    io.write("stopped\n")
    io.flush()
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    io.write(string.format("orders created %d failed %d\n", thread:get("created"), thread:get("failed")))
  end
end
