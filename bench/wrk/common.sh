# Shell functions the wrk load scripts (bench/http-load.sh, bench/two-server-load.sh) share. Sourced, not run.

# wrk (the load generator) and jq (to build the seed load) from Debian's packages, as build/ensure-liblmdb.sh does.
ensure_tool() { # command package
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing $2 with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q --no-install-recommends "$2" >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends "$2" >/dev/null; }
    fi
    command -v "$1" >/dev/null 2>&1 || { echo "$1 is missing; install it: sudo apt-get install $2" >&2; exit 1; }
}
# Waits (up to 60 s) for "Now listening on: http://127.0.0.1:<port>" in a log and prints the address.
listening_address() { # log pid
    for _ in $(seq 1 600); do
        address="$(grep -o 'Now listening on: http://127\.0\.0\.1:[0-9]*' "$1" | head -1 | sed 's/^Now listening on: //')" || true
        [ -n "$address" ] && { echo "$address"; return 0; }
        kill -0 "$2" 2>/dev/null || break
        sleep 0.1
    done
    echo "the process logging to $1 did not start listening:" >&2
    cat "$1" >&2
    return 1
}

# Stops a process this script started with SIGTERM (a server then closes its database) and waits up to 30 s until it
# has exited: `wait` cannot, when the process was started inside a command substitution (not this shell's child), and
# deleting its folder while it still closes fails.
stop_process() { # pid
    kill "$1" 2>/dev/null || return 0
    wait "$1" 2>/dev/null || true
    for _ in $(seq 1 300); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$1" 2>/dev/null || true
}

run_wrk() { # seconds connections url script [script arguments...]
    local threads=$(( $2 < 2 ? $2 : 2 ))
    local script_args=("${@:5}")
    # An empty first argument means none (the scenario tables leave the column empty).
    [ "${#script_args[@]}" -gt 0 ] && [ -z "${script_args[0]}" ] && script_args=()
    wrk -t"$threads" -c"$2" -d"$1s" --timeout 10s -s "$4" "$3" ${script_args[@]:+-- "${script_args[@]}"} | grep '^wrk-result '
}

# The sentence a generated section says about the machine's load before the run: noisy figures are called so.
load_note() { # load-average
    if awk -v load="$1" -v cores="$(nproc)" 'BEGIN { exit !(load > cores) }'; then
        echo "Load average (1 min) before the run: $1 on $(nproc) cores; well above $(nproc), other work shared the machine and the figures are **noisy**."
    else
        echo "Load average (1 min) before the run: $1 on $(nproc) cores: nothing else was running."
    fi
}

# Fails (status 1, after saying so) when any of the wrk results counted errors.
no_errors() { # description result...
    local result errors
    for result in "${@:2}"; do
        errors="$(field errors "$result")"
        [ "$errors" = "0" ] || { echo "$1 had $errors errors: $result" >&2; return 1; }
    done
}

field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }


# The seed scenario as one /bulk_docs body: carts/0..n-1 from testdata/seed-cart.json (entity Item), users/0..m-1.
seed_load() { # carts users
    jq -c --argjson carts "$1" --argjson users "$2" '. as $cart
    | [range(0; $carts) | {Method: "PUT", Key: "carts/\(.)", Document: $cart.data, Metadata: $cart.metadata}]
    + [range(0; $users) | {Method: "PUT", Key: "users/\(.)",
        Document: {name: "someone", email: "someone@example.com", visits: 3}, Metadata: {"Raven-Entity-Name": "User"}}]' \
    testdata/seed-cart.json
}

# Puts a generated section into a document in place of the one between its markers (or at the end, the first time).
replace_section() { # document section-file begin-marker end-marker
    if grep -qF "$3" "$1" && grep -qF "$4" "$1"; then
        awk -v begin="$3" -v end="$4" -v section="$2" '
            $0 == begin { while ((getline line < section) > 0) print line; skipping = 1; next }
            skipping && $0 == end { skipping = 0; next }
            !skipping { print }' "$1" >"$2.document"
        cat "$2.document" >"$1"
    else
        { echo; cat "$2"; } >>"$1"
    fi
}
