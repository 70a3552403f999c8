#!/usr/bin/env bash
# Installs (if missing) and starts a local Redis for the test suite on a Debian machine where we are root
# and there is no systemd, then prints the export line for GATEWAY_TEST_REDIS_URL. Safe to run again.
set -euo pipefail

readonly listen_address=127.0.0.1
readonly listen_port=6379

# Runs a command quietly, showing its output only when it fails.
run_quietly() {
  local output
  if ! output=$("$@" 2>&1); then
    printf '%s\n' "$output" >&2
    return 1
  fi
}

if ! command -v redis-server >/dev/null 2>&1; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "start-redis.sh must run as root to install redis-server" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  run_quietly apt-get update
  run_quietly apt-get install -y redis-server
fi

if ! redis-cli -h "$listen_address" -p "$listen_port" ping 2>/dev/null | grep -qx PONG; then
  # No persistence: the test server holds only counters that tests create and throw away.
  run_quietly redis-server --bind "$listen_address" --port "$listen_port" --daemonize yes --save '' --appendonly no
fi

for _ in $(seq 1 60); do
  if redis-cli -h "$listen_address" -p "$listen_port" ping 2>/dev/null | grep -qx PONG; then
    break
  fi
  sleep 0.5
done
if ! redis-cli -h "$listen_address" -p "$listen_port" ping 2>/dev/null | grep -qx PONG; then
  echo "Redis did not answer PING on $listen_address:$listen_port" >&2
  exit 1
fi

echo "export GATEWAY_TEST_REDIS_URL=redis://$listen_address:$listen_port"
