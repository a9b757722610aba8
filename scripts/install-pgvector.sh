#!/usr/bin/env bash
# Installs the pgvector extension into the machine's PostgreSQL when it is missing.
# pgvector is not packaged for this Debian release, so we build Debian trixie's own source package
# against postgresql-server-dev, from the mirror the machine already uses.
set -euo pipefail

pg_config_bin=$(ls /usr/lib/postgresql/*/bin/pg_config | sort -V | tail -n 1)
sharedir=$("$pg_config_bin" --sharedir)
if [ -f "$sharedir/extension/vector.control" ]; then
  exit 0
fi
major=$("$pg_config_bin" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "postgresql-server-dev-$major" build-essential dpkg-dev >/dev/null

mirror=$(grep -h -m1 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | head -n 1)
if [ -z "$mirror" ]; then
  mirror=$(grep -h -m1 '^deb ' /etc/apt/sources.list | awk '{print $2}')
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/archives/partial"
echo "deb-src $mirror trixie main" > "$work/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=0")
apt-get "${apt_opts[@]}" update -qq
(cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq pgvector)
(cd "$work" && dpkg-source -x --no-check ./pgvector_*.dsc src >/dev/null)
make -C "$work/src" -s OPTFLAGS="" PG_CONFIG="$pg_config_bin" >/dev/null
make -C "$work/src" -s OPTFLAGS="" PG_CONFIG="$pg_config_bin" install >/dev/null
echo "pgvector installed for PostgreSQL $major"
