-- wrk's end-of-run hook for bench/http-load.sh: one machine-readable line per run (latencies in microseconds).
-- Errors count failed connections, reads, writes, timeouts and any status >= 400; the script refuses a run with any.
done = function(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("wrk-result requests=%d rps=%.1f p50_us=%d p99_us=%d errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6),
        latency:percentile(50), latency:percentile(99),
        e.connect + e.read + e.write + e.status + e.timeout))
end
