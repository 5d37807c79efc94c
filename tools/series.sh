#!/usr/bin/env bash
# Works on the patch series as git history.
#   tools/series.sh checkout DIR   pristine 9.10.0 in DIR as a git repo, one
#                                  commit per patch (message: the file name)
#   tools/series.sh export DIR     rewrites each patches/<name> from its
#                                  commit's diff, keeping the file's header
#                                  (everything before the first "diff --git")
# Edit in DIR, commit fixups (`git commit --fixup=<commit>`), squash them
# (`GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash --root`), then export:
# later patches touching the same files are regenerated too, so the series
# keeps applying without offsets. A new patch is a new commit whose message is
# its file name; export writes it with a placeholder header to fill in, and
# it must be added to patches/series by hand. Patches whose diff did not
# change keep their bytes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:?usage: tools/series.sh checkout|export DIR}
dir=${2:?usage: tools/series.sh checkout|export DIR}

series_names() { grep -v '^\s*\(#\|$\)' "$root/patches/series"; }

case "$cmd" in
  checkout)
    pristine=$(ls -d "$root"/build/*/upstream/pristine 2>/dev/null | head -1)
    [ -n "$pristine" ] || { echo "no configured build dir with upstream/pristine" >&2; exit 1; }
    [ ! -e "$dir" ] || { echo "$dir exists" >&2; exit 1; }
    cp -r "$pristine" "$dir"
    cd "$dir"
    git init -q && git add -A && git -c user.name=series -c user.email=series@localhost commit -qm pristine
    for p in $(series_names); do
      patch -p1 -F0 -s < "$root/patches/$p"
      git add -A && git -c user.name=series -c user.email=series@localhost commit -qm "$p"
      echo "$p $(git diff HEAD~1 HEAD | sha256sum | cut -d' ' -f1)" >> .git/series-ids
    done
    echo "$dir: $(git rev-list --count HEAD) commits"
    ;;
  export)
    cd "$dir"
    for c in $(git rev-list --reverse HEAD); do
      name=$(git log -1 --format=%s "$c")
      [ "$name" = pristine ] && continue
      out="$root/patches/$name"
      id=$(git diff "$c~1" "$c" | sha256sum | cut -d' ' -f1)
      # Unchanged patches keep their bytes (file order, index lines).
      grep -qx "$name $id" .git/series-ids 2>/dev/null && continue
      if [ -f "$out" ]; then
        awk '/^diff --git /{exit} {print}' "$out" > "$out.tmp"
      else
        printf 'Subject: TODO\n\nWhat: TODO\n\nWhy: TODO\n\n' > "$out.tmp"
      fi
      git diff "$c~1" "$c" >> "$out.tmp"
      mv "$out.tmp" "$out"
    done
    ;;
  *) echo "unknown command: $cmd" >&2; exit 2 ;;
esac
