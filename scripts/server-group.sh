# Sourced by the benchmark scripts that start servers of their own (scripts/bench-server-figures.sh,
# scripts/bench-tryton.sh): each server runs in a process group of its own (setsid), so that stopping it
# reaches all of it.

# stop_group PID: TERM to the group PID leads, wait for the leader, then KILL to whatever of the group
# outlived it (a child that ignores TERM).
stop_group() {
  kill -TERM -- "-$1" 2>/dev/null
  wait "$1" 2>/dev/null
  kill -KILL -- "-$1" 2>/dev/null
}

# wait_for_server NAME URL PID LOG: waits as long as the server is starting, with no fixed limit: until
# URL answers (any HTTP status), or until the process PID has ended (then the end of LOG, and exit 1).
wait_for_server() {
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$2")" != 000 ]; do
    if ! kill -0 "$3" 2>/dev/null; then
      echo "$1 ended before it answered; the end of its log:" >&2
      tail -n 30 "$4" >&2
      exit 1
    fi
    sleep 1
  done
}
