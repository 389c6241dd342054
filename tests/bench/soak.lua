-- Mixed traffic for the soak: every scenario that exists, throttled to a target rate.
-- Set by soak.sh through environment variables: GH_TOKEN, GH_DELAY_MS (float, per connection).
local token = os.getenv("GH_TOKEN") or ""
local customer = os.getenv("GH_CUSTOMER") or "0d9a3f0e-0000-4000-8000-000000000000"
local callback = os.getenv("GH_CALLBACK") or ""
local upc = os.getenv("GH_UPC") or "0631234200036"
local delay_ms = tonumber(os.getenv("GH_DELAY_MS") or "0")
local body2k = string.rep("x", 2048)
local requests = {}
local i = 0

function init(args)
  local svc = wrk.format("GET", "/healthz")
  requests = {
    svc, svc, svc,
    wrk.format("GET", "/readyz"),
    wrk.format("GET", "/v1/unknown/path?q=1"),                          -- 404
    wrk.format("DELETE", "/healthz"),                                   -- 405 with Allow
    wrk.format("POST", "/v1/customers/0d9a3f0e-0000-4000-8000-000000000000/orders",
               {["Content-Type"] = "application/json"}, body2k),        -- body read, 404
    wrk.format("GET", "/healthz", {["Connection"] = "close"}),          -- reconnects
    -- an order through its whole lifecycle, with its five signed callbacks to the built-in
    -- demo receiver (outbox, dispatcher, attempt log)
    wrk.format("POST", "/v1/customers/" .. customer .. "/orders",
               {["Content-Type"] = "application/json"},
               '{"beerOrderLines":[{"upc":"' .. upc .. '","orderQuantity":1}],' ..
               '"orderStatusCallbackUrl":"' .. callback .. '"}'),
    wrk.format("GET", "/v1/beers?pageSize=5"),
  }
end

function request()
  i = i + 1
  return requests[(i % #requests) + 1]
end

function delay()
  -- wrk delays in whole milliseconds: dither between floor and ceil to hit the average.
  local base = math.floor(delay_ms)
  if math.random() < (delay_ms - base) then return base + 1 end
  return base
end
