#!/usr/bin/env bash
# Installs (if missing) and starts a local PostgreSQL for the test suite on a Debian machine where we
# are root and there is no systemd, then prints the export line for GATEWAY_TEST_POSTGRES_URL.
# Safe to run again: every step checks before it changes anything. Quiet unless something fails.
set -euo pipefail

readonly listen_address=127.0.0.1
readonly listen_port=5432
readonly password=postgres

# Runs a command quietly, showing its output only when it fails.
run_quietly() {
  local output
  if ! output=$("$@" 2>&1); then
    printf '%s\n' "$output" >&2
    return 1
  fi
}

if [[ $(id -u) -ne 0 ]]; then
  echo "start-postgres.sh must run as root" >&2
  exit 1
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  run_quietly apt-get update
  run_quietly apt-get install -y postgresql
fi

version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
cluster=main

if ! pg_lsclusters --no-header | awk '{print $1 " " $2}' | grep -qx "$version $cluster"; then
  run_quietly pg_createcluster "$version" "$cluster"
fi

# The socket directory lives on tmpfs in containers and may vanish between runs.
install -d -o postgres -g postgres -m 2775 /var/run/postgresql

# A drop-in file (Debian's postgresql.conf includes conf.d/) keeps our settings apart from the packaged ones.
settings_file=/etc/postgresql/$version/$cluster/conf.d/gateway-tests.conf
settings="listen_addresses = '$listen_address'
port = $listen_port"
needs_restart=false
if [[ ! -f $settings_file || $(cat "$settings_file") != "$settings" ]]; then
  printf '%s\n' "$settings" >"$settings_file"
  chown postgres:postgres "$settings_file"
  needs_restart=true
fi

status=$(pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c {print $4}')
if [[ $status == online* ]]; then
  if [[ $needs_restart == true ]]; then
    run_quietly pg_ctlcluster "$version" "$cluster" restart
  fi
else
  run_quietly pg_ctlcluster "$version" "$cluster" start
fi

for _ in $(seq 1 60); do
  if pg_isready -q -h "$listen_address" -p "$listen_port"; then
    break
  fi
  sleep 0.5
done
if ! pg_isready -q -h "$listen_address" -p "$listen_port"; then
  echo "PostgreSQL did not accept connections on $listen_address:$listen_port" >&2
  exit 1
fi

# The local socket uses peer authentication, so the postgres OS user can always set the password.
(cd / && run_quietly runuser -u postgres -- psql -p "$listen_port" -qAtX -v ON_ERROR_STOP=1 \
  -c "ALTER USER postgres PASSWORD '$password'")

echo "export GATEWAY_TEST_POSTGRES_URL=postgres://postgres:$password@$listen_address:$listen_port/postgres"
