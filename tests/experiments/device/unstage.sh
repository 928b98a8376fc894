#!/usr/bin/env bash
# Restores what stage.sh deleted.
set -eu
cd "$(dirname "$0")/../../.."
git checkout -- .
git status --short
