#!/usr/bin/env bash
# Restores what stage.sh deleted (only the deleted files: edits made while staged stay).
set -eu
cd "$(dirname "$0")/../../.."
git ls-files -z --deleted | xargs -0 -r git checkout --
git status --short
