-- wrk script for scripts/bench-serve: every request probes a new random
-- position (2 to DTB_BENCH_MAX_PIECES pieces, both sides at least one piece,
-- no man on its own promotion row) with a random 6.4-range count, so the
-- server decodes blocks all over the tables instead of answering one
-- position from a warm cache. done() prints one line for the script to read.
local max_pieces = tonumber(os.getenv("DTB_BENCH_MAX_PIECES") or "4")
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("seed", thread_count * 7919)
end

function init(args)
  math.randomseed(seed or 1)
end

-- A random square not yet used.
local function free_square(used)
  while true do
    local s = math.random(1, 50)
    if not used[s] then
      used[s] = true
      return s
    end
  end
end

local function random_fen()
  local pieces = math.random(2, max_pieces)
  local used, lists = {}, { W = {}, B = {} }
  for i = 1, pieces do
    local colour = (i == 1 and "W") or (i == 2 and "B") or (math.random(2) == 1 and "W" or "B")
    local square = free_square(used)
    local promotion_row = (colour == "W" and square <= 5) or (colour == "B" and square >= 46)
    local king = promotion_row or math.random(2) == 1
    table.insert(lists[colour], (king and "K" or "") .. square)
  end
  local side = math.random(2) == 1 and "W" or "B"
  return side .. "%3AW" .. table.concat(lists.W, "%2C") .. "%3AB" .. table.concat(lists.B, "%2C")
end

function request()
  local path = "/api/probe?fen=" .. random_fen() .. "&plies_in_class=" .. math.random(0, 10)
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f p50_us=%d p99_us=%d max_us=%d " ..
    "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    latency.max, e.connect, e.read, e.write, e.status, e.timeout))
end
