-- PUT /docs/carts/<n> for a random n in [0, carts): the writers of bench/http-load.sh's mixed run. Arguments after
-- "--": the number of carts (default 1024) and a file holding the cart's data JSON (the seed cart's "data" object).
-- Each write replaces an existing seed cart with the same body, so the seed query keeps its 1,024 results while
-- every write moves the index's version (and so the response cache's key).
dofile("bench/wrk/summary.lua")

local carts = 1024
local body = nil
local headers = { ["Content-Type"] = "application/json", ["Raven-Entity-Name"] = "Item" }

init = function(args)
    carts = tonumber(args[1]) or carts
    local file = assert(io.open(args[2], "rb"), "put-cart.lua: the second argument must name the cart's data JSON file")
    body = file:read("*a")
    file:close()
    math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 1000)
end

request = function()
    return wrk.format("PUT", "/docs/carts/" .. math.random(0, carts - 1), headers, body)
end
