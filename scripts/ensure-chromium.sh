#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a downloaded browser); install it when missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "chromium installed: $(/usr/bin/chromium --version)"
