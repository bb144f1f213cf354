#!/usr/bin/env bash
# Regenerates the public-API baseline of every package (src/<project>/.PublicAPI/PublicAPI.Unshipped.txt) from the
# code. It empties the unshipped list, builds, and records every symbol the PublicApiAnalyzers report as missing
# (RS0016), generated code included (`dotnet format` would skip
# them). PublicAPI.Shipped.txt is left alone: it changes only when a version ships (move the lines then); a shipped
# symbol that is gone (RS0017) is printed for a person to decide. Review the diff and commit it.
#   bash eng/update-public-api.sh                 # Core, Policies, Grpc, Testing
#   bash eng/update-public-api.sh src/Cicero.Grpc/Cicero.Grpc.csproj
set -euo pipefail
cd "$(dirname "$0")/.."

projects=("$@")
if [ ${#projects[@]} -eq 0 ]; then
  # The packed packages; the emulator has no baseline (src/Directory.Build.props).
  projects=(src/Cicero.Core/Cicero.Core.csproj src/Cicero.Policies/Cicero.Policies.csproj src/Cicero.Grpc/Cicero.Grpc.csproj src/Cicero.Testing/Cicero.Testing.csproj)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for project in "${projects[@]}"; do
  dir=$(dirname "$project")/.PublicAPI
  mkdir -p "$dir"
  [ -f "$dir/PublicAPI.Shipped.txt" ] || printf '#nullable enable\n' > "$dir/PublicAPI.Shipped.txt"
  printf '#nullable enable\n' > "$dir/PublicAPI.Unshipped.txt"

  # Warnings stay warnings for this build, so every missing symbol is reported rather than the build stopping.
  dotnet build "$project" -c Release --no-incremental -nologo -p:TreatWarningsAsErrors=false >"$log" 2>&1 || true
  if grep -q ': error ' "$log"; then
    grep ': error ' "$log" | sort -u >&2
    echo "error: $project does not build; fix that first" >&2
    exit 1
  fi

  sed -n "s/.*warning RS0016: Symbol '\(.*\)' is not part of the declared public API.*/\1/p" "$log" | LC_ALL=C sort -u >> "$dir/PublicAPI.Unshipped.txt"
  gone=$(sed -n "s/.*warning RS0017: Symbol '\(.*\)' is part of the declared API, but is either not public or could not be found.*/\1/p" "$log" | LC_ALL=C sort -u)
  if [ -n "$gone" ]; then
    echo "$project: shipped symbols that are gone (a breaking change; remove them from PublicAPI.Shipped.txt only on purpose):" >&2
    echo "$gone" >&2
  fi
  echo "$project: $(($(wc -l < "$dir/PublicAPI.Unshipped.txt") - 1)) unshipped symbols"
done

# The check CI makes: with warnings as errors (the repository's setting) the baseline must be complete.
for project in "${projects[@]}"; do
  if ! dotnet build "$project" -c Release -nologo >"$log" 2>&1; then
    grep -E 'RS00[0-9]{2}' "$log" | sort -u | head -n 20 >&2
    echo "error: $project still differs from its baseline" >&2
    exit 1
  fi
done
echo "public-API baseline up to date"
