# Sourced by the scripts that install the Debian packages and Python virtual environments they
# need (not run on its own).

# Run a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt-get waits up to ten minutes for the dpkg and package-list locks that another installer
# may hold.
apt_get() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# Install Debian packages, refreshing the package lists only when the first try fails.
apt_install() {
    if ! apt_get install -y "$@"; then
        apt_get update
        apt_get install -y "$@"
    fi
}

# new_venv DIR: a fresh virtual environment in DIR. Debian's python3 makes them only with
# python3-venv, which this installs when missing.
new_venv() {
    if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
        echo "installing python3-venv" >&2
        apt_install python3-venv
    fi
    rm -rf "$1"
    python3 -m venv "$1"
}

# python_venv DIR MODULE PACKAGE...: a virtual environment in DIR whose python imports MODULE,
# made (with PACKAGE... from PyPI) only when it does not.
python_venv() {
    local dir=$1 module=$2
    shift 2
    if "$dir/bin/python" -c "import $module" >/dev/null 2>&1; then
        return
    fi
    echo "installing $* into $dir" >&2
    new_venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
}
