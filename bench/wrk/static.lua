-- The same request every time (the URL given to wrk); reports through summary.lua.
dofile("bench/wrk/summary.lua")
