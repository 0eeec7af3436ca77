# Sourced by the match scripts: copies the release binaries into $1/bin
# (built from the current tree, the commit stamped in $1/bin/COMMIT), so that
# rebuilding during the hours a script runs changes nothing. KEEP_BIN=1
# reuses the copies already there (a resumed run keeps its binaries).
prepare_bin() {
  if [ -z "${KEEP_BIN:-}" ] || [ ! -x "$1/bin/luzhanqi" ]; then
    cargo build --release --quiet
    mkdir -p "$1/bin"
    cp target/release/luzhanqi target/release/arena "$1/bin/"
    git rev-parse --short HEAD > "$1/bin/COMMIT"
  fi
}
