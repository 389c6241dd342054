-- The console's side of the soak: admin status and metrics with the admin token.
local token = os.getenv("GH_TOKEN") or ""
local i = 0
function request()
  i = i + 1
  local path = (i % 2 == 0) and "/admin/v1/status" or "/metrics"
  return wrk.format("GET", path, {["Authorization"] = "Bearer " .. token})
end
function delay() return 20 end
