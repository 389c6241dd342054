-- POST /v1/customers/{customerId}/orders with two lines and a callback URL (so every order
-- is written with its outbox row). Set by run.sh: GH_CUSTOMER, GH_UPC1, GH_UPC2, GH_CALLBACK.
local customer = os.getenv("GH_CUSTOMER")
local body = string.format(
  '{"beerOrderLines":[{"upc":"%s","orderQuantity":1},{"upc":"%s","orderQuantity":2}],' ..
  '"orderStatusCallbackUrl":"%s"}',
  os.getenv("GH_UPC1"), os.getenv("GH_UPC2"), os.getenv("GH_CALLBACK"))
local req

function init(args)
  req = wrk.format("POST", "/v1/customers/" .. customer .. "/orders",
                   {["Content-Type"] = "application/json"}, body)
end

function request()
  return req
end
