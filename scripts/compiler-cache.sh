# Sourced by scripts/build, check, fuzz and package: compile through ccache where it is
# installed (scripts/deps installs it), with one cache per machine, as the roots of
# scripts/ompi-env are the machine's: a fresh clone then recompiles only what differs from a build
# already made here, with the same compiler and flags. Paths under the clone are hashed relative
# to it (base_dir) and the working directory is left out of the hash (hash_dir false), so clones
# at different paths share results; where a flag names the clone's own path, ccache falls back to
# hashing the preprocessed source. The cache is $CCACHE_DIR if set, else
# ${MODELTUNED_CACHE_DIR:-/var/cache/modeltuned}/ccache where that can be written, else ccache's
# own. MODELTUNED_CCACHE=0 compiles without it.
#
#   use_compiler_cache TOP    TOP: the clone's top directory
use_compiler_cache() {
  local top=$1 dir
  [ "${MODELTUNED_CCACHE:-1}" != 0 ] && [ -d /usr/lib/ccache ] && command -v ccache >/dev/null || return 0
  case ":$PATH:" in *:/usr/lib/ccache:*) ;; *) PATH="/usr/lib/ccache:$PATH" ;; esac
  if [ -z "${CCACHE_DIR:-}" ]; then
    dir=${MODELTUNED_CACHE_DIR:-/var/cache/modeltuned}/ccache
    if mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ]; then export CCACHE_DIR="$dir"; fi
  fi
  export PATH CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=true CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
}
