#!/usr/bin/env bash
# Real mail servers for the end-to-end tests: Dovecot (IMAP, LMTP) and
# Postfix (SMTP) from Debian's packages, on 127.0.0.1 only, for the domain
# example.test. Nothing can leave the machine (default_transport = error).
#
#   scripts/mailservers.sh start|stop|status [STATE_DIR]
#
# Ports (override with the environment): IMAP 10143, SMTP 10025, LMTP 10024.
# Accounts referee, white, black, alice, bob, carol, dave @example.test, all
# with password "secret"; referee+anything@example.test lands in referee's
# INBOX. Run as root (CI and the sandbox are); idempotent.
set -euo pipefail

cmd=${1:-status}
state=${2:-${REFEREE_MAIL_STATE:-/tmp/referee-mail}}
imap_port=${REFEREE_TEST_IMAP_PORT:-10143}
smtp_port=${REFEREE_TEST_SMTP_PORT:-10025}
lmtp_port=${REFEREE_TEST_LMTP_PORT:-10024}
domain=example.test
users="referee white black alice bob carol dave"
pfdir=$state/postfix

say() { echo "mailservers: $*" >&2; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 100); do
    listening "$1" && return 0
    sleep 0.1
  done
  say "port $1 did not open"; return 1
}

need() {
  for c in dovecot postfix postconf doveadm; do
    command -v "$c" >/dev/null 2>&1 || { say "$c is not installed (apt-get install dovecot-imapd dovecot-lmtpd postfix)"; exit 3; }
  done
}

configure() {
  mkdir -p "$state/run" "$state/mail" "$pfdir"
  id vmail >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin vmail
  chown vmail:vmail "$state/mail"
  : > "$state/users"
  for u in $users; do
    echo "$u@$domain:{PLAIN}secret::::::" >> "$state/users"
  done
  cat > "$state/dovecot.conf" <<EOF
# Dovecot 2.3 for the referee's tests; Debian's conf.d is not used.
base_dir = $state/run
instance_name = referee-test
listen = 127.0.0.1
protocols = imap lmtp
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Lu
log_path = $state/dovecot.log
mail_location = maildir:$state/mail/%u/Maildir
mail_uid = vmail
mail_gid = vmail
first_valid_uid = 1
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $state/users
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=$state/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $lmtp_port
  }
  unix_listener lmtp {
    mode = 0600
  }
}
protocol imap {
  mail_max_userip_connections = 50
}
EOF
  # Postfix: Debian's instance, configured with postconf (the verified
  # recipe of TECH-NOTES.md); its main.cf and master.cf are saved first and
  # restored by stop.
  if [ ! -f "$pfdir/main.cf.orig" ]; then
    cp /etc/postfix/main.cf "$pfdir/main.cf.orig"
    cp /etc/postfix/master.cf "$pfdir/master.cf.orig"
  fi
  printf '%s\n' $users | sed "s/\$/@$domain x/" > "$pfdir/vmailbox"
  postconf -e \
    "myhostname = mx.$domain" \
    "mydestination =" \
    "inet_interfaces = loopback-only" \
    "inet_protocols = ipv4" \
    "mynetworks = 127.0.0.0/8" \
    "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination" \
    "virtual_mailbox_domains = $domain" \
    "virtual_mailbox_maps = texthash:$pfdir/vmailbox" \
    "virtual_transport = lmtp:inet:127.0.0.1:$lmtp_port" \
    "default_transport = error:nothing leaves this test machine" \
    "relay_transport = error:nothing leaves this test machine" \
    "recipient_delimiter = +" \
    "maillog_file_prefixes = /var, /dev/stdout, $state" \
    "maillog_file = $state/postfix.log" \
    "message_size_limit = 20480000"
  postconf -F '*/*/chroot = n'
  postconf -M "127.0.0.1:$smtp_port/inet=127.0.0.1:$smtp_port inet n - n - - smtpd"
  postconf -M "postlog/unix-dgram=postlog unix-dgram n - n - 1 postlogd"
}

start() {
  need
  if listening "$imap_port" && listening "$smtp_port"; then
    say "already running (IMAP 127.0.0.1:$imap_port, SMTP 127.0.0.1:$smtp_port)"
    return 0
  fi
  configure
  if ! listening "$imap_port"; then
    dovecot -c "$state/dovecot.conf" </dev/null >/dev/null 2>&1
  fi
  if ! listening "$smtp_port"; then
    postfix check </dev/null >/dev/null 2>&1 || true
    postfix start </dev/null >/dev/null 2>&1 || postfix reload </dev/null >/dev/null 2>&1
  fi
  wait_port "$imap_port"
  wait_port "$smtp_port"
  say "running: IMAP 127.0.0.1:$imap_port, SMTP 127.0.0.1:$smtp_port, domain $domain, state $state"
}

stop() {
  if [ -f "$state/dovecot.conf" ]; then
    doveadm -c "$state/dovecot.conf" stop </dev/null >/dev/null 2>&1 || true
  fi
  postfix stop </dev/null >/dev/null 2>&1 || true
  if [ -f "$pfdir/main.cf.orig" ]; then
    cp "$pfdir/main.cf.orig" /etc/postfix/main.cf
    cp "$pfdir/master.cf.orig" /etc/postfix/master.cf
    rm -f "$pfdir/main.cf.orig" "$pfdir/master.cf.orig"
  fi
  for _ in $(seq 1 50); do
    listening "$imap_port" || listening "$smtp_port" || break
    sleep 0.1
  done
  say "stopped"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status)
    if listening "$imap_port" && listening "$smtp_port"; then say "running"; exit 0; fi
    say "not running"; exit 1 ;;
  *) echo "usage: $0 start|stop|status [STATE_DIR]" >&2; exit 2 ;;
esac
