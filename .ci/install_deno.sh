#!/usr/bin/env bash
# Installs Deno 2.9.6 from the npm registry into .tools/ unless it is there already.
#
# `--prefix .tools` makes .tools its own npm project. Without it, npm walks up from .tools
# looking for a project and, after `deno task start` in the same checkout, finds the checkout's
# root (Deno's node_modules/ is there): it then writes package.json at the root and prunes
# Deno's packages from node_modules/ as extraneous.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x .tools/node_modules/.bin/deno ]; then exit 0; fi
mkdir -p .tools
npm install --prefix .tools --no-audit --no-fund --silent deno@2.9.6
