#!/usr/bin/env bash
# Makes sure the machine's PostgreSQL (127.0.0.1:5432, user postgres, trust auth) is running and reachable.
set -euo pipefail

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
fi
for _ in $(seq 1 30); do
  if pg_isready -h 127.0.0.1 -p 5432 -q; then
    psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select version()' >/dev/null
    exit 0
  fi
  sleep 1
done
echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2
exit 1
