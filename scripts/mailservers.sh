#!/usr/bin/env bash
# Private mail servers for the end-to-end tests: Dovecot (IMAP, LMTP) and
# Postfix (SMTP) from Debian's packages, on 127.0.0.1 only, for the domain
# example.test. Nothing can leave the machine (every transport but LMTP to
# this Dovecot is "error").
#
#   scripts/mailservers.sh start|stop|status STATE_DIR [dovecot|postfix]
#
# Everything an instance has lives under STATE_DIR: its configuration, its
# Postfix queue and data, Dovecot's base and state directories, the
# mailboxes, the logs and the pid files. The machine's own mail servers are
# never touched: nothing under /etc/postfix or /etc/dovecot is written,
# Postfix runs as its `master` daemon started with -c STATE_DIR/postfix/etc
# (the `postfix` command would require that directory to be listed in
# /etc/postfix/main.cf), and stop signals only the pids this script
# recorded under STATE_DIR (checked against their command lines).
#
# Ports: REFEREE_TEST_IMAP_PORT (10143), REFEREE_TEST_SMTP_PORT (10025),
# REFEREE_TEST_LMTP_PORT (10024), read at the first start and kept in
# STATE_DIR/ports. Accounts: REFEREE_TEST_USERS (referee white black alice bob
# carol dave mallory) @example.test, password "secret"; plus-addresses
# (referee+anything@example.test) land in the account's INBOX. Mail files
# belong to the user nobody. Needs root (Postfix's master starts as root).
# The optional last argument starts or stops one server only.
set -euo pipefail

cmd=${1:-}
state=${2:-}
only=${3:-}
if [ -z "$cmd" ] || [ -z "$state" ]; then
  echo "usage: $0 start|stop|status STATE_DIR [dovecot|postfix]" >&2
  exit 2
fi
case "$state" in
  /*) ;;
  *) state=$PWD/$state ;;
esac
domain=example.test
pfetc=$state/postfix/etc
pfspool=$state/postfix/spool
pfdata=$state/postfix/data

say() { echo "mailservers: $*" >&2; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 100); do
    listening "$1" && return 0
    sleep 0.1
  done
  say "port $1 did not open (logs: $state/dovecot.log, $state/postfix.log)"
  return 1
}

need() {
  if [ "$(id -u)" != 0 ]; then
    say "must run as root (Postfix's master daemon starts as root)"; exit 3
  fi
  for c in dovecot doveadm postconf; do
    command -v "$c" >/dev/null 2>&1 || { say "$c is not installed (apt-get install dovecot-imapd dovecot-lmtpd postfix)"; exit 3; }
  done
  # Debian's compiled-in defaults, read once (postconf is slow to start).
  eval "$(postconf -d daemon_directory command_directory shlib_directory meta_directory mail_owner setgid_group |
    sed -n "s/^\([a-z_]*\) = \([^']*\)\$/pf_\1='\2'/p")"
  master=$pf_daemon_directory/master
  [ -x "$master" ] || { say "$master is missing (apt-get install postfix)"; exit 3; }
}

load_ports() {
  if [ -f "$state/ports" ]; then
    # shellcheck disable=SC1091
    . "$state/ports"
  else
    imap_port=${REFEREE_TEST_IMAP_PORT:-10143}
    smtp_port=${REFEREE_TEST_SMTP_PORT:-10025}
    lmtp_port=${REFEREE_TEST_LMTP_PORT:-10024}
  fi
}

configure() {
  [ -f "$state/ports" ] && return 0
  local users=${REFEREE_TEST_USERS:-referee white black alice bob carol dave mallory}
  for p in "$imap_port" "$smtp_port" "$lmtp_port"; do
    if listening "$p"; then say "port $p is already in use; choose others with REFEREE_TEST_*_PORT"; exit 4; fi
  done
  mkdir -p "$state/run" "$state/dovecot-state" "$state/mail" "$pfetc" "$pfspool" "$pfdata"
  chmod 755 "$state"
  chown nobody:nogroup "$state/mail"
  : > "$state/users"
  for u in $users; do
    echo "$u@$domain:{PLAIN}secret::::::" >> "$state/users"
  done
  cat > "$state/dovecot.conf" <<EOF
# Dovecot 2.3, private instance for the referee's tests; Debian's conf.d is
# not used and nothing outside $state is written.
base_dir = $state/run
state_dir = $state/dovecot-state
instance_name = referee-test-$$
listen = 127.0.0.1
protocols = imap lmtp
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Lu
log_path = $state/dovecot.log
mail_location = maildir:$state/mail/%u/Maildir
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 1
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $state/users
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=$state/mail/%u
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
  mail_max_userip_connections = 100
}
EOF

  # Postfix: a complete private configuration (main.cf and master.cf),
  # queue and data directories; only the program and meta directories are
  # Debian's, read-only.
  printf '%s\n' $users | sed "s/\$/@$domain x/" > "$pfetc/vmailbox"
  cat > "$pfetc/main.cf" <<EOF
# Private Postfix for the referee's tests (master -c $pfetc).
compatibility_level = 3.6
config_directory = $pfetc
queue_directory = $pfspool
data_directory = $pfdata
daemon_directory = $pf_daemon_directory
command_directory = $pf_command_directory
shlib_directory = $pf_shlib_directory
meta_directory = $pf_meta_directory
mail_owner = $pf_mail_owner
setgid_group = $pf_setgid_group
syslog_name = postfix-referee-test
maillog_file = $state/postfix.log
maillog_file_prefixes = $state
myhostname = mx.$domain
mydomain = $domain
myorigin = $domain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_banner = \$myhostname ESMTP referee-test
# Headers are left as the client wrote them, as a real MX does for mail
# from outside: a message without Message-ID stays without one.
local_header_rewrite_clients =
alias_maps =
alias_database =
biff = no
virtual_mailbox_domains = $domain
virtual_mailbox_maps = texthash:$pfetc/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$lmtp_port
local_transport = error:nothing leaves this test machine
default_transport = error:nothing leaves this test machine
relay_transport = error:nothing leaves this test machine
recipient_delimiter = +
message_size_limit = 20480000
EOF
  cat > "$pfetc/master.cf" <<EOF
# service type private unpriv chroot wakeup maxproc command
127.0.0.1:$smtp_port inet n - n - - smtpd
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
lmtp      unix  - - n - - lmtp
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF
  # The queue as postfix-files lays it out.
  local owner=$pf_mail_owner group=$pf_setgid_group
  chown root:root "$pfspool"; chmod 755 "$pfspool"
  mkdir -p "$pfspool/pid"; chmod 755 "$pfspool/pid"
  for d in active bounce corrupt defer deferred flush hold incoming private saved trace; do
    mkdir -p "$pfspool/$d"; chown "$owner" "$pfspool/$d"; chmod 700 "$pfspool/$d"
  done
  mkdir -p "$pfspool/maildrop" "$pfspool/public"
  chown "$owner:$group" "$pfspool/maildrop" "$pfspool/public"
  chmod 1730 "$pfspool/maildrop"; chmod 2710 "$pfspool/public"
  chown "$owner" "$pfdata"; chmod 700 "$pfdata"
  printf 'imap_port=%s\nsmtp_port=%s\nlmtp_port=%s\n' "$imap_port" "$smtp_port" "$lmtp_port" > "$state/ports"
}

# ours PIDFILE: prints the pid in PIDFILE if that process runs a command
# naming this state directory (so a recycled pid is never signalled).
ours() {
  local pid
  [ -f "$1" ] || return 1
  pid=$(tr -dc 0-9 < "$1")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$state/" || return 1
  echo "$pid"
}

dovecot_pidfile() { echo "$state/run/master.pid"; }
postfix_pidfile() { echo "$pfspool/pid/master.pid"; }

start_dovecot() {
  if ours "$(dovecot_pidfile)" >/dev/null; then return 0; fi
  dovecot -c "$state/dovecot.conf" </dev/null >/dev/null 2>>"$state/dovecot.log" || {
    say "dovecot did not start: $(tail -n 5 "$state/dovecot.log")"; return 1; }
  wait_port "$imap_port"
  wait_port "$lmtp_port"
}

start_postfix() {
  if ours "$(postfix_pidfile)" >/dev/null; then return 0; fi
  # -w: the foreground process returns once the real master (which
  # detaches and writes pid/master.pid) is ready, or fails.
  MAIL_CONFIG=$pfetc "$master" -c "$pfetc" -w </dev/null >/dev/null 2>>"$state/postfix.log" || {
    say "postfix master did not start: $(tail -n 5 "$state/postfix.log" 2>/dev/null)"; return 1; }
  wait_port "$smtp_port"
}

# stop_pids PIDFILE...: SIGTERM to each of our processes named in the pid
# files, all at once, then SIGKILL to those still there after 10 s.
stop_pids() {
  local f pid pids=()
  for f in "$@"; do
    if pid=$(ours "$f"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  for _ in $(seq 1 100); do
    local alive=0
    for pid in "${pids[@]}"; do
      [ -d "/proc/$pid" ] && alive=1
    done
    [ $alive = 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    if [ -d "/proc/$pid" ]; then
      say "pid $pid ignored SIGTERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

wait_closed() {
  for p in "$@"; do
    for _ in $(seq 1 50); do
      listening "$p" || break
      sleep 0.1
    done
  done
}

start() {
  need
  load_ports
  configure
  case "$only" in
    dovecot) start_dovecot ;;
    postfix) start_postfix ;;
    "") start_dovecot; start_postfix ;;
    *) say "unknown server $only"; exit 2 ;;
  esac
  say "running: IMAP 127.0.0.1:$imap_port, SMTP 127.0.0.1:$smtp_port, LMTP 127.0.0.1:$lmtp_port, domain $domain, state $state"
}

stop() {
  [ -f "$state/ports" ] || { say "nothing configured in $state"; return 0; }
  load_ports
  case "$only" in
    dovecot) stop_pids "$(dovecot_pidfile)"; wait_closed "$imap_port" ;;
    postfix) stop_pids "$(postfix_pidfile)"; wait_closed "$smtp_port" ;;
    "") stop_pids "$(postfix_pidfile)" "$(dovecot_pidfile)"; wait_closed "$smtp_port" "$imap_port" ;;
    *) say "unknown server $only"; exit 2 ;;
  esac
  say "stopped ${only:-both} in $state"
}

status() {
  [ -f "$state/ports" ] || { say "not configured in $state"; exit 1; }
  load_ports
  local rc=0 pid
  if pid=$(ours "$(dovecot_pidfile)"); then say "dovecot running, pid $pid, IMAP 127.0.0.1:$imap_port"; else say "dovecot not running"; rc=1; fi
  if pid=$(ours "$(postfix_pidfile)"); then say "postfix running, pid $pid, SMTP 127.0.0.1:$smtp_port"; else say "postfix not running"; rc=1; fi
  exit $rc
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status STATE_DIR [dovecot|postfix]" >&2; exit 2 ;;
esac
