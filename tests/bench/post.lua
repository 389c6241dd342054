-- POST $GH_BODY as JSON to the URL wrk was given (the receiver's capacity, the peer of the
-- webhooks scenario).
local body = os.getenv("GH_BODY") or "{}"
local req
function init(args)
  req = wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end
function request()
  return req
end
