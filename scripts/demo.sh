#!/usr/bin/env bash
# Installs dependencies, builds fvkit, prepares the bundled example mesh and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release -B build/release >/dev/null
cmake --build build/release -j "$(nproc)"
echo "demo: fvkit built: $(build/release/prep/fvprep --version)"
