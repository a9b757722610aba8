#!/usr/bin/env bash
# The mail connector's tests start their own Dovecot per test file (test/support/dovecot.ts); install it when
# missing. The system service is not needed and not started (a policy-rc.d keeps the package from starting it).
set -euo pipefail
if [ -x /usr/sbin/dovecot ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d 101 keeps the package's post-install from starting the service on machines with an init system.
created_policy=no
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  created_policy=yes
fi
apt-get install -y -qq dovecot-imapd >/dev/null
if [ "$created_policy" = yes ]; then
  rm -f /usr/sbin/policy-rc.d
fi
if [ ! -x /usr/sbin/dovecot ]; then
  echo "dovecot-imapd did not install /usr/sbin/dovecot" >&2
  exit 1
fi
