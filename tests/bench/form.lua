-- POST $GH_FORM (application/x-www-form-urlencoded) with Authorization: $GH_AUTH to
-- $GH_PATH: token and introspection requests of the oauth scenario. Any answer other than
-- 200 counts as an error (wrk's "Non-2xx" line).
local body = os.getenv("GH_FORM") or ""
local auth = os.getenv("GH_AUTH") or ""
local path = os.getenv("GH_PATH") or "/"
local req
function init(args)
  req = wrk.format("POST", path, {["Content-Type"] = "application/x-www-form-urlencoded",
                                  ["Authorization"] = auth}, body)
end
function request()
  return req
end
