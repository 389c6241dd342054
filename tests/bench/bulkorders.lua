-- Loads the console scenario's orders through the service API (validated and written by the
-- order service like any other order): POSTs with one line each, spread over the catalog, a
-- unique customerRef and no callback URL (no webhook deliveries). Run with wrk -t1 (the
-- counters are per thread) and a long -d: the thread stops once GH_COUNT orders have been
-- created (201). Requests still under way then may create up to -c more; run.sh asks for
-- fewer and adds the rest one by one. Set by run.sh: GH_CUSTOMER, GH_UPCS (space-separated),
-- GH_COUNT, GH_REF_PREFIX.
local customer = os.getenv("GH_CUSTOMER")
local count = tonumber(os.getenv("GH_COUNT"))
local prefix = os.getenv("GH_REF_PREFIX") or "bench"
local upcs = {}
for upc in string.gmatch(os.getenv("GH_UPCS"), "%S+") do
  upcs[#upcs + 1] = upc
end
local path = "/v1/customers/" .. customer .. "/orders"
local headers = {["Content-Type"] = "application/json"}
local threads = {}
sent, created, failed = 0, 0, 0

function setup(thread)
  threads[#threads + 1] = thread
end

function request()
  sent = sent + 1
  local body = string.format(
    '{"customerRef":"%s-%d","beerOrderLines":[{"upc":"%s","orderQuantity":%d}]}',
    prefix, sent, upcs[sent % #upcs + 1], sent % 3 + 1)
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  else
    failed = failed + 1
  end
  if created >= count then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    io.write(string.format("orders created %d failed %d\n", thread:get("created"), thread:get("failed")))
  end
end
