# Sourced by .ci/run: make `python3.X` run Python 3.X, or stop in one line.
# The README's test commands call python3.12 (the whole suite, as the Site workflow runs it) and python3.11
# (the current-torch run), so that CI covers both Pythons. pyenv's shims run only the versions it has
# selected (`pyenv global`, PYENV_VERSION): an installed 3.12 beside a global 3.11 answers "command not
# found", so the newest installed 3.X is added to PYENV_VERSION.
use_python() {
  local version="$1" found=""
  if "python$version" -c "" >/dev/null 2>&1; then
    return 0
  fi
  if command -v pyenv >/dev/null 2>&1; then
    found="$(pyenv versions --bare --skip-aliases 2>/dev/null | grep -E "^${version//./\\.}\.[0-9]+$" | sort -V | tail -n 1 || true)"
    if [ -n "$found" ]; then
      export PYENV_VERSION="${PYENV_VERSION:-$(pyenv version-name 2>/dev/null | tr '\n' ':' | sed 's/:$//')}:$found"
      if "python$version" -c "" >/dev/null 2>&1; then
        return 0
      fi
    fi
  fi
  echo "ci: Python $version not found: the README's test commands call python$version (install it, e.g. pyenv install $version)" >&2
  return 1
}
