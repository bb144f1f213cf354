#!/usr/bin/env bash
# Counts the public surface recorded in the packages' PublicAPI files (issue 38): types are the lines without "->",
# members the lines with "->" (constructors, methods, accessors, operators, enum values, constants). [Experimental]
# members count like the rest. Blank lines and "#nullable enable" are left out.
#   bash eng/count-public-api.sh            # the working tree
#   bash eng/count-public-api.sh 3bd442b    # a commit
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
if [ -z "$rev" ]; then
  text=$(cat src/*/.PublicAPI/PublicAPI.*.txt)
else
  text=$(git ls-tree -r --name-only "$rev" | grep '\.PublicAPI/PublicAPI\..*\.txt$' | while read -r f; do git show "$rev:$f"; done)
fi
entries=$(printf '%s\n' "$text" | grep -v '^#' | grep -v '^[[:space:]]*$' || true)
echo "types: $(printf '%s\n' "$entries" | grep -vc -- '->' || true)"
echo "members: $(printf '%s\n' "$entries" | grep -c -- '->' || true)"
