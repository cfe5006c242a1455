-- The same request every time (the URL given to wrk); reports through summary.lua (paths are from the repository
-- root, where bench/http-load.sh runs wrk).
dofile("bench/wrk/summary.lua")
