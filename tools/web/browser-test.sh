#!/usr/bin/env bash
# The web board's browser test (test/browser.test.mjs): builds the server
# with the tests' profile (optimised; `cargo test` builds the same binary),
# then plays in headless Chromium. Needs Debian's chromium (or CHROMIUM=path)
# and `npm ci` in tools/web; .ci/run installs both.
set -euo pipefail
cd "$(dirname "$0")"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "browser-test: no Chromium at $chromium (apt-get install chromium, or set CHROMIUM)" >&2
  exit 1
fi
if [ ! -d node_modules/playwright-core ]; then
  echo "browser-test: run 'npm ci' in tools/web first" >&2
  exit 1
fi
cargo build --profile test -p web --bin web
export WEB_BIN=../../target/debug/web CHROMIUM="$chromium"
exec node --test test/
