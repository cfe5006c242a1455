-- GET /docs/carts/<n> for a random n in [0, carts), carts = the first argument after "--" (default 1024).
dofile("bench/wrk/summary.lua")

local carts = 1024

init = function(args)
    carts = tonumber(args[1]) or carts
    math.randomseed(os.time())
end

request = function()
    return wrk.format("GET", "/docs/carts/" .. math.random(0, carts - 1))
end
